import FactoryCore
import FactoryTestSupport
import Testing

// The test support's bounded waits (Tests/FactoryTestSupport/Watchdog.swift): a
// wait that does not end fails the test that waited, naming what it waited
// for, and the run goes on.

@Suite struct WatchdogTests {
    @Test func aBodyThatNeverEndsFailsItsTestAndTheRunGoesOn() async throws {
        let comments = LockedBox<[String]>([])
        try await withKnownIssue("the watchdog fails this test") {
            try await withAsyncWatchdog("the body never ended", within: 0.2) {
                // Cancellable: the watchdog cancels it, and it ends.
                try await waitFor("nothing", upTo: watchdogBound) { false }
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined() + (issue.error.map { "\($0)" } ?? "")
            comments.withLock { $0.append(text) }
            return text.contains("the body never ended")
        }
        let recorded = comments.withLock { $0 }
        #expect(recorded.contains("the body never ended (watchdog: not finished within 0.2 s)"))
        #expect(recorded.contains("the body never ended (waited 0.2 s)"))
    }

    /// A test that cannot resume when its watchdog's bound passes, because every
    /// thread of the cooperative pool is blocked (here by tasks that wait, for up
    /// to 30 s, until the issue is recorded), still fails then, naming itself: the
    /// watchdog resumes the wait and records the issue on a thread of its own.
    @Test func aTestThatCannotResumeStillFailsWhenItsBoundPasses() async {
        let unblock = Signal()
        let unblocked = Signal()
        let recordedWhilePoolBlocked = Collector<Bool>()
        await withKnownIssue("the watchdog fails this test while the pool is blocked") {
            _ = try? await withAsyncWatchdog("the body never ended", within: 0.2) {
                // More blocking tasks than the pool has threads: it runs nothing else until they end.
                let deadline = monotonicSeconds() + 30
                for _ in 0..<128 {
                    Task.detached {
                        unblock.wait(upTo: max(0, deadline - monotonicSeconds()))
                        unblocked.raise()
                    }
                }
                try await waitFor("nothing", upTo: watchdogBound) { false }
            }
        } matching: { issue in
            recordedWhilePoolBlocked.append(!unblocked.isRaised)
            unblock.raise()
            return issue.comments.map(\.rawValue).joined().contains("the body never ended")
        }
        #expect(recordedWhilePoolBlocked.values == [true], "the issue waited until the pool was free")
    }

    /// Threads whose bodies do not all return fail the test once the bound
    /// passes, and the call returns, leaving the stuck thread behind.
    @Test func threadsThatDoNotFinishFailTheTestAndTheCallReturns() {
        let release = Signal()
        withKnownIssue("runOnThreads reports the thread that never finished") {
            runOnThreads(2, within: 0.2) { index in
                if index == 1 { release.wait() }
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("2 threads did not finish within 0.2 s: a deadlock")
        }
        release.raise()
    }

    @Test func aWaitStopsWhenItsTaskIsCancelled() async throws {
        let waiting = Task { try await waitFor("a condition that never holds") { false } }
        waiting.cancel()
        try await withAsyncWatchdog("the cancelled wait went on") {
            await #expect(throws: CancellationError.self) { try await waiting.value }
        }
    }

    #if EXIT_TESTS
    @Test func aBodyRunOnAnotherThreadThatNeverReturnsStopsTheProcessSayingSo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            runOnAnotherThread(upTo: 0.2) { _ = Signal().wait() }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("runOnAnotherThread: the body did not return within 0.2 s"))
    }
    #endif

    @Test func aWaitThatOutlivesItsBoundNamesWhatItWaitedFor() async {
        let error = await #expect(throws: WatchdogTimeout.self) {
            try await Signal().raised("the signal nobody raises", upTo: 0.05)
        }
        #expect(error?.waitedFor == "the signal nobody raises")
    }
}
