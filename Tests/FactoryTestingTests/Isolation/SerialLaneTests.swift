import FactoryTestSupport
import Testing

@testable import FactoryTesting

@Suite struct SerialLaneTests {
    /// Each waiter starts only once the one before it is queued, so the arrival
    /// order is known without sleeping; the log must then show every holder leave
    /// before the next comes in, in that order.
    @Test func holdersRunOneAtATimeInArrivalOrder() async {
        await withAsyncWatchdog {
            let lane = SerialLane()
            let log = LockedBox<[String]>([])
            await lane.acquire()
            var waiters: [Task<Void, Never>] = []
            for index in 0..<5 {
                waiters.append(
                    Task {
                        await lane.acquire()
                        log.withLock { $0.append("in \(index)") }
                        await Task.yield()
                        log.withLock { $0.append("out \(index)") }
                        await lane.release()
                    })
                while await lane.waiterCount < index + 1 { await Task.yield() }
            }
            log.withLock { $0.append("first out") }
            await lane.release()
            for waiter in waiters { await waiter.value }
            let expected = ["first out"] + (0..<5).flatMap { ["in \($0)", "out \($0)"] }
            #expect(log.withLock { $0 } == expected)
        }
    }
}
