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
