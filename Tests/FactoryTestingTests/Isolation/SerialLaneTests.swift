import FactoryTestSupport
import Testing

@testable import FactoryTesting

@Suite struct SerialLaneTests {
    /// Each waiter starts only once the one before it is queued, so the arrival
    /// order is known without sleeping; the log must then show every holder leave
    /// before the next comes in, in that order.
    @Test func holdersRunOneAtATimeInArrivalOrder() async throws {
        try await withAsyncWatchdog {
            let lane = SerialLane(patience: watchdogBound)
            let log = LockedBox<[String]>([])
            try await lane.acquire(for: "first")
            var waiters: [Task<Void, any Error>] = []
            for index in 0..<5 {
                waiters.append(
                    Task {
                        try await lane.acquire(for: "waiter \(index)")
                        log.withLock { $0.append("in \(index)") }
                        await Task.yield()
                        log.withLock { $0.append("out \(index)") }
                        await lane.release()
                    })
                try await waitFor("waiter \(index) to queue") { await lane.waiterCount == index + 1 }
            }
            log.withLock { $0.append("first out") }
            await lane.release()
            for waiter in waiters { try await waiter.value }
            let expected = ["first out"] + (0..<5).flatMap { ["in \($0)", "out \($0)"] }
            #expect(log.withLock { $0 } == expected)
        }
    }

    /// A holder that never lets go fails the test waiting behind it, with an
    /// error naming what each of them isolates, and leaves the queue empty.
    @Test func aWaiterGivesUpOnAHolderThatNeverLetsGo() async throws {
        let lane = SerialLane(patience: 0.2)
        try await lane.acquire(for: "StaticOrders")
        let error = await #expect(throws: SerialLaneTimeout.self) {
            try await withAsyncWatchdog("the wait for the lane outlived its patience") {
                try await lane.acquire(for: "StaticPayments")
            }
        }
        #expect(error?.waiter == "StaticPayments")
        #expect(error?.holder == "StaticOrders")
        #expect("\(error.map(String.init(describing:)) ?? "")".contains("a test isolating StaticPayments waited 0.2 s"))
        #expect(await lane.waiterCount == 0)
        #expect(await lane.isHeld)
    }

    /// A cancelled waiter (a test's time limit) stops waiting at once, and the
    /// lane never goes to it.
    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let lane = SerialLane(patience: watchdogBound)
        try await lane.acquire(for: "holder")
        let waiter = Task { try await lane.acquire(for: "waiter") }
        try await waitFor("the waiter to queue") { await lane.waiterCount == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) {
            try await withAsyncWatchdog("the cancelled waiter kept waiting") { try await waiter.value }
        }
        #expect(await lane.waiterCount == 0)
        await lane.release()
        #expect(await !lane.isHeld)
    }
}
