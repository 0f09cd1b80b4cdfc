import FactoryWrappers

/// A small deterministic generator, one per thread, so a failing run can be replayed.
private struct SplitMix64 {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z &>> 31)) % UInt64(bound))
    }
}

/// Registration, reset, push/pop and resolution from many threads at once.
func stressChaos(_ report: inout StressReport) {
    stressRegistrationsAreNotLost(&report)
    stressEverythingAtOnce(&report)
    stressRegisterThenResolve(&report)
    stressTypeBasedResolution(&report)
    stressAutoRegistration(&report)
}

/// Each thread registers and resolves its own factories while all of them reset
/// caches and contexts of the same container: no thread ever sees a closure
/// other than the one it registered last, and at the end every last
/// registration is still there.
private func stressRegistrationsAreNotLost(_ report: inout StressReport) {
    let container = ChaosContainer()
    let iterations = 1_000
    let wrongClosure = Tally()
    let graphSplits = Tally()
    runThreads(threads) { index in
        for round in 0..<iterations {
            let tag = index * 100_000 + round
            container.worker(index).register { Thing(tag: tag) }
            if container.worker(index)().tag != tag { wrongClosure.increment() }
            container.cachedWorker(index).register { Thing(tag: tag) }
            if container.cachedWorker(index)().tag != tag { wrongClosure.increment() }
            switch round % 16 {
            case 3: container.manager.reset(options: .scope)
            case 7: container.manager.reset(scope: .cached)
            case 11: container.manager.reset(options: .context)
            case 13: container.cachedWorker(index).reset(.scope)
            default: break
            }
            _ = container.common()
            _ = container.commonCached()
            _ = container.commonShared()
            let pair = container.commonGraph()
            if pair.left.leaf !== pair.right.leaf { graphSplits.increment() }
        }
    }
    var lost = 0
    for index in 0..<threads {
        let last = index * 100_000 + iterations - 1
        if container.worker(index)().tag != last { lost += 1 }
        if container.cachedWorker(index)().tag != last { lost += 1 }
    }
    report.expect(
        "registrations: wrong closure resolved", wrongClosure.value, equals: 0,
        "\(threads) threads x \(iterations) register+resolve")
    report.expect("registrations: lost at the end", lost, equals: 0)
    report.expect("registrations: graph split under churn", graphSplits.value, equals: 0)
}

/// Every thread does everything — register any factory, reset factories and the
/// container with every option, push, pop, reset scopes and singletons, resolve —
/// in a seeded random order. No crash, and a resolution only ever returns what
/// the definition or a registration of that very factory builds.
private func stressEverythingAtOnce(_ report: inout StressReport) {
    let container = ChaosContainer()
    let iterations = 3_000
    let tags = Tally()
    let crossTalk = Tally()
    let graphSplits = Tally()
    let options: [FactoryResetOptions] = [.none, .registration, .context, .scope, .all, [.registration, .scope]]
    runThreads(threads) { index in
        var random = SplitMix64(state: UInt64(index) &* 7919 &+ 17)
        for _ in 0..<iterations {
            let target = random.next(threads)
            switch random.next(14) {
            case 0, 1:
                // Tags name their factory in the low bits: 16 * unique + factory.
                let tag = tags.increment() * 16 + target
                container.worker(target).register { Thing(tag: tag) }
            case 2:
                let tag = tags.increment() * 16 + 8 + target
                container.cachedWorker(target).register { Thing(tag: tag) }
            case 3:
                container.worker(target).reset(options[random.next(options.count)])
            case 4:
                container.cachedWorker(target).reset(options[random.next(options.count)])
            case 5:
                container.manager.push()
            case 6:
                container.manager.pop()
            case 7:
                container.manager.reset(options: options[random.next(options.count)])
            case 8:
                if random.next(2) == 0 { container.manager.reset(scope: .cached) } else { Scope.singleton.reset() }
            case 9:
                let pair = container.commonGraph()
                if pair.left.leaf !== pair.right.leaf { graphSplits.increment() }
                _ = container.commonSingleton()
                _ = container.commonShared()
            default:
                let worker = container.worker(target)().tag
                if worker != 0 && worker % 16 != target { crossTalk.increment() }
                let cached = container.cachedWorker(target)().tag
                if cached != 0 && cached % 16 != 8 + target { crossTalk.increment() }
            }
        }
    }
    report.expect(
        "everything at once: another factory's closure", crossTalk.value, equals: 0,
        "\(threads) threads x \(iterations) random operations")
    report.expect("everything at once: graph split", graphSplits.value, equals: 0)

    // Afterwards the container still behaves: a full reset shows every definition,
    // registrations stick, and push/pop restore them.
    var inconsistent = 0
    container.manager.reset(options: .all)
    for index in 0..<threads where container.worker(index)().tag != 0 { inconsistent += 1 }
    for index in 0..<threads { container.worker(index).register { Thing(tag: 1_000 + index) } }
    container.manager.push()
    for index in 0..<threads { container.worker(index).register { Thing(tag: 2_000 + index) } }
    for index in 0..<threads where container.worker(index)().tag != 2_000 + index { inconsistent += 1 }
    container.manager.pop()
    for index in 0..<threads where container.worker(index)().tag != 1_000 + index { inconsistent += 1 }
    report.expect("everything at once: inconsistent afterwards", inconsistent, equals: 0)
}

/// Type-based registration and reset on some threads, type-based resolution on
/// the others: a resolution returns `nil` or what was registered, and never stops
/// the program.
private func stressTypeBasedResolution(_ report: inout StressReport) {
    let container = TypedContainer()
    let iterations = 5_000
    let wrong = Tally()
    runThreads(threads) { index in
        for round in 0..<iterations {
            if index < 2 {
                container.register { Thing(tag: 7) }
                if round.isMultiple(of: 2) { container.manager.reset() } else { container.manager.reset(options: .registration) }
            } else if let thing = container.resolve(Thing.self), thing.tag != 7 {
                wrong.increment()
            }
        }
    }
    report.expect("type-based: wrong instance", wrong.value, equals: 0, "\(threads) threads x \(iterations)")
}

/// A fresh `AutoRegistering` container touched first by 8 threads at once:
/// `autoRegister()` runs once, and every thread already sees what it registered.
private func stressAutoRegistration(_ report: inout StressReport) {
    var extraRuns = 0
    let unregistered = Tally()
    for _ in 0..<rounds {
        let container = AutoContainer()
        runThreads(threads) { _ in
            if container.service().tag != 1 { unregistered.increment() }
        }
        extraRuns += container.autoRegistrations.value - 1
    }
    report.expect("autoRegister: extra runs", extraRuns, equals: 0, "\(rounds) containers x \(threads) threads")
    report.expect("autoRegister: resolutions before it finished", unregistered.value, equals: 0)
}

/// One thread registers a cached factory again and again, resolving it right
/// after each `register`, while seven threads resolve it: `register` clears the
/// cached instance, so the registering thread must never get an instance built
/// by an earlier registration.
private func stressRegisterThenResolve(_ report: inout StressReport) {
    let container = ChaosContainer()
    let registrations = 40_000
    let stale = Tally()
    runThreads(threads) { index in
        if index == 0 {
            for tag in 1...registrations {
                container.cachedWorker(0).register { Thing(tag: tag) }
                if container.cachedWorker(0)().tag < tag { stale.increment() }
            }
        } else {
            for _ in 0..<registrations { _ = container.cachedWorker(0)() }
        }
    }
    report.expect(
        "register: then an older closure's instance", stale.value, equals: 0,
        "\(registrations) registrations, \(threads - 1) threads resolving")
}
