import FactoryWrappers

/// The documented way to use the wrapper in a type shared across threads.
private struct LazyClient: Sendable {
    @LazyInjected(\StressContainer.lazyTarget) var target: Thing
}

/// `@LazyInjected` read for the first time by 8 threads at once: the factory (unique
/// scope, slow closure) runs once and every thread gets the same instance.
func stressLazyInjected(_ report: inout StressReport) {
    let before = lazyBuilds.value
    var splitRounds = 0
    for round in 0..<rounds {
        let seen = Bag<Int>()
        if round.isMultiple(of: 2) {
            let client = LazyClient()
            runThreads(threads) { _ in seen.append(client.target.serial) }
        } else {
            let lazy = LazyInjected(StressContainer().lazyTarget)
            runThreads(threads) { _ in seen.append(lazy.wrappedValue.serial) }
        }
        if Set(seen.values).count != 1 || seen.values.count != threads { splitRounds += 1 }
    }
    report.expect(
        "@LazyInjected: closure runs", lazyBuilds.value - before, equals: rounds,
        "\(rounds) rounds x \(threads) first reads")
    report.expect("@LazyInjected: rounds that saw two instances", splitRounds, equals: 0)
}
