import FactoryWrappers

/// Rounds and threads of the exactly-once scenarios.
let rounds = 40
let threads = 8

/// Singleton, cached and shared factories with slow closures, resolved by 8
/// threads at once: one build per cache generation, one instance per round.
func stressExactlyOnce(_ report: inout StressReport) {
    stressSingleton(&report)
    stressCached(&report)
    stressShared(&report)
    stressPerParameterAndTimeToLive(&report)
    stressCachedUnderResets(&report)
}

/// How the rounds of one scenario went.
private struct RoundTally {
    var splitRounds = 0
    var reusedRounds = 0
    var seen: Set<Int> = []
    var last: Int?

    /// Counts a round whose threads saw `serials`; `expectPrevious` says whether the
    /// round had to hit the previous round's instance instead of building.
    mutating func add(_ serials: [Int], expectPrevious: Bool) {
        let distinct = Set(serials)
        if distinct.count != 1 { splitRounds += 1 }
        let reused = !distinct.isDisjoint(with: seen)
        if expectPrevious ? distinct != [last] : reused { reusedRounds += 1 }
        seen.formUnion(distinct)
        last = serials.first
    }
}

private func stressSingleton(_ report: inout StressReport) {
    let before = singletonBuilds.value
    var tally = RoundTally()
    var expectedBuilds = 0
    for round in 0..<rounds {
        // Every fourth round keeps the singleton and asks a new container instance:
        // singletons are process-wide, so nothing may be built.
        let keep = round % 4 == 3
        let container = StressContainer()
        if !keep {
            expectedBuilds += 1
            if round.isMultiple(of: 2) { Scope.singleton.reset() } else { container.manager.reset(options: .singletons) }
        }
        let seen = Bag<Int>()
        runThreads(threads) { _ in seen.append(container.slowSingleton().serial) }
        tally.add(seen.values, expectPrevious: keep)
    }
    report.expect(
        "singleton: closure runs", singletonBuilds.value - before, equals: expectedBuilds,
        "\(rounds) rounds x \(threads) threads")
    report.expect("singleton: rounds that saw two instances", tally.splitRounds, equals: 0)
    report.expect("singleton: rounds with the wrong instance", tally.reusedRounds, equals: 0)
}

private func stressCached(_ report: inout StressReport) {
    let before = cachedBuilds.value
    var tally = RoundTally()
    var container = StressContainer()
    for round in 0..<rounds {
        // Three ways to start a new cache generation.
        switch round % 3 {
        case 0: container = StressContainer()
        case 1: container.manager.reset(scope: .cached)
        default: container.manager.reset(options: .scope)
        }
        let current = container
        let seen = Bag<Int>()
        runThreads(threads) { _ in seen.append(current.slowCached().serial) }
        tally.add(seen.values, expectPrevious: false)
    }
    report.expect(
        "cached: closure runs", cachedBuilds.value - before, equals: rounds,
        "\(rounds) rounds x \(threads) threads")
    report.expect("cached: rounds that saw two instances", tally.splitRounds, equals: 0)
    report.expect("cached: rounds that reused an old instance", tally.reusedRounds, equals: 0)
}

private func stressShared(_ report: inout StressReport) {
    let before = sharedBuilds.value
    let container = StressContainer()
    var tally = RoundTally()
    var keptAlive: Thing?
    var expectedBuilds = 0
    for round in 0..<rounds {
        // Every fourth round starts while the previous instance is still held
        // elsewhere, so it must be found again; otherwise nobody holds it and the
        // round must build a new one.
        let keep = round % 4 == 3
        if !keep { expectedBuilds += 1 }
        let seen = Bag<Thing>()
        withExtendedLifetime(keptAlive) {
            runThreads(threads) { _ in seen.append(container.slowShared()) }
        }
        let instances = seen.values
        tally.add(instances.map(\.serial), expectPrevious: keep)
        keptAlive = round % 4 == 2 ? instances.first : nil
    }
    report.expect(
        "shared: closure runs", sharedBuilds.value - before, equals: expectedBuilds,
        "\(rounds) rounds x \(threads) threads")
    report.expect("shared: rounds that saw two instances", tally.splitRounds, equals: 0)
    report.expect("shared: rounds with the wrong instance", tally.reusedRounds, equals: 0)
}

/// The other two cache paths: one entry per parameter (`scopeOnParameters`), and
/// entries with an expiry (`timeToLive`, long enough not to expire here).
private func stressPerParameterAndTimeToLive(_ report: inout StressReport) {
    let parameters = 4
    let parameterBefore = parameterBuilds.value
    let timeToLiveBefore = timeToLiveBuilds.value
    var splitRounds = 0
    for _ in 0..<rounds {
        let container = StressContainer()
        let seen = Bag<(parameter: Int, serial: Int)>()
        let timed = Bag<Int>()
        runThreads(threads) { index in
            // Each thread walks the parameters from a different starting point.
            for step in 0..<parameters {
                let parameter = (index + step) % parameters
                seen.append((parameter, container.slowPerParameter(parameter).serial))
            }
            timed.append(container.slowTimeToLive().serial)
        }
        let perParameter = Dictionary(grouping: seen.values, by: \.parameter).mapValues { Set($0.map(\.serial)) }
        if perParameter.count != parameters || perParameter.values.contains(where: { $0.count != 1 }) {
            splitRounds += 1
        }
        if Set(timed.values).count != 1 { splitRounds += 1 }
    }
    report.expect(
        "per-parameter: closure runs", parameterBuilds.value - parameterBefore, equals: rounds * parameters,
        "\(rounds) rounds x \(threads) threads x \(parameters) parameters")
    report.expect("time-to-live: closure runs", timeToLiveBuilds.value - timeToLiveBefore, equals: rounds)
    report.expect("per-parameter, time-to-live: split rounds", splitRounds, equals: 0)
}

/// Seven threads resolve a slow cached factory while the eighth resets its cache:
/// at most one build starts per generation, and every instance built is one that
/// some resolution returned.
private func stressCachedUnderResets(_ report: inout StressReport) {
    let container = StressContainer()
    let before = cachedBuilds.value
    let resets = Tally()
    let seen = Bag<Int>()
    runThreads(threads) { index in
        if index == 0 {
            for _ in 0..<30 {
                pause(microseconds: 1_500)
                if resets.value.isMultiple(of: 2) {
                    container.manager.reset(scope: .cached)
                } else {
                    container.manager.reset(options: .scope)
                }
                resets.increment()
            }
        } else {
            for _ in 0..<60 {
                seen.append(container.slowCached().serial)
            }
        }
    }
    let builds = cachedBuilds.value - before
    report.expect(
        "cached under resets: closure runs", builds, atMost: resets.value + 1,
        "one per generation, \(resets.value) resets")
    report.expect("cached under resets: instances returned", Set(seen.values).count, equals: builds)
}
