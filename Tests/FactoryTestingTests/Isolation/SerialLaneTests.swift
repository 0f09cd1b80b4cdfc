import Testing

@testable import FactoryTesting

@Suite struct SerialLaneTests {
    @Test func holdersRunOneAtATimeInArrivalOrder() async {
        let lane = SerialLane()
        let log = LockedBox<[String]>([])
        await lane.acquire()
        let waiters = (0..<5).map { index in
            Task {
                await lane.acquire()
                log.withLock { $0.append("in \(index)") }
                await Task.yield()
                log.withLock { $0.append("out \(index)") }
                await lane.release()
            }
        }
        // Let every waiter queue up before the first holder leaves.
        for _ in 0..<50 { await Task.yield() }
        log.withLock { $0.append("first out") }
        await lane.release()
        for waiter in waiters { await waiter.value }
        let entries = log.withLock { $0 }
        #expect(entries.first == "first out")
        // Each holder leaves before the next comes in.
        for pair in stride(from: 1, to: entries.count, by: 2) {
            #expect(entries[pair].hasPrefix("in "))
            #expect(entries[pair + 1] == "out " + entries[pair].dropFirst(3))
        }
    }
}
