import FactoryWrappers

/// Graph-scoped dependencies from 8 threads at once: both holders of one
/// resolution share its leaf, and no two resolutions share one.
func stressGraph(_ report: inout StressReport) {
    let container = StressContainer()
    let perThread = 1_000
    let leaves = Bag<Int>()
    let splits = Tally()
    runThreads(threads) { _ in
        for _ in 0..<perThread {
            let pair = container.pair()
            if pair.left.leaf !== pair.right.leaf { splits.increment() }
            leaves.append(pair.left.leaf.serial)
        }
    }
    report.expect("graph: resolutions split inside", splits.value, equals: 0, "\(threads) x \(perThread) resolutions")
    report.expect("graph: leaves shared between resolutions", leaves.values.count - Set(leaves.values).count, equals: 0)

    // A cycle that waits, half-way, for a cached build running on another thread,
    // whose closure resolves the graph leaf inside that thread's own cycle.
    let acrossWaitSplits = Tally()
    let before = graphCacheBuilds.value
    for round in 0..<rounds {
        if round.isMultiple(of: 2) { container.manager.reset(scope: .cached) }
        runThreads(threads) { _ in
            let pair = container.pairAcrossWait()
            if pair.left.leaf !== pair.right.leaf { acrossWaitSplits.increment() }
        }
    }
    report.expect(
        "graph: split across a wait for a build", acrossWaitSplits.value, equals: 0,
        "\(rounds) rounds x \(threads) threads")
    report.expect(
        "graph: cached builds holding a graph leaf", graphCacheBuilds.value - before, equals: rounds / 2,
        "one per cache generation")
}
