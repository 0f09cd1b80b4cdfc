/// Resolves the items of a ``ValidationRun`` on one validation thread, standing
/// in for the program-stopping failures of core while it does.
///
/// Set as the thread's `ResolutionContext.validation`, so only resolutions on this
/// thread report here. Lives and dies with its thread: never shared.
final class ValidationWorker: ResolutionValidating {
    private let run: ValidationRun
    private let signal: ValidationSignal
    private var current = 0
    /// Whether a failure that stops resolution may park this thread; not on the main thread.
    private let canPark: Bool

    init(run: ValidationRun, signal: ValidationSignal, canPark: Bool = true) {
        self.run = run
        self.signal = signal
        self.canPark = canPark
    }

    /// Resolves the items from `start` on, then wakes the caller.
    func resolve(from start: Int) {
        let context = ResolutionContext.current
        context.validation = self
        for index in start..<run.items.count {
            current = index
            let abandoned = run.state.withLock { state in
                state.current = index
                return state.abandoned
            }
            if abandoned { break }
            run.items[index].resolve?()
        }
        context.validation = nil
        run.state.withLock { $0.next = run.items.count }
        signal.fire()
    }

    /// Resolves `item`, which stands at `index` of the run, on the calling thread:
    /// the main thread, for a factory whose closure is isolated to the main actor.
    func resolveHere(_ item: ValidationItem, at index: Int) {
        let context = ResolutionContext.current
        context.validation = self
        current = index
        item.resolve?()
        context.validation = nil
    }

    /// Records a failure found outside the core's hooks (an async closure that threw,
    /// a time limit), for the item being resolved.
    func record(_ kind: GraphFailure.Kind, chain: [FactoryKey], message: String) {
        run.append(GraphFailure(entry: run.items[current].name, kind: kind, chain: chain, message: message), at: current)
    }

    func record(_ error: FactoryError) {
        run.append(failure(error), at: current)
    }

    /// Records a cycle an async resolution threw back, with the chain it carried
    /// (this thread's own chain is empty: the resolution ran in tasks).
    func record(_ error: FactoryError, chain: [FactoryKey]) {
        run.append(
            GraphFailure(
                entry: run.items[current].name, kind: .circularDependency, chain: chain, message: error.message),
            at: current)
    }

    func captured(_ capture: CaptiveDependency) {
        let failure = GraphFailure(
            entry: run.items[current].name, kind: .captiveDependency, chain: capture.chain, message: capture.message,
            holderChain: capture.holderChain)
        run.append(failure, at: current)
        run.state.withLock { _ = $0.captures.insert([capture.holder.description, capture.captured.description]) }
    }

    func resolved(_ child: FactoryKey, scope: String, parent: FactoryKey?) {
        run.state.withLock { state in
            state.scopes[child.description] = scope
            if let parent { state.resolves.insert([parent.description, child.description]) }
        }
    }

    /// Records `error`, clears the builds this thread leaves unfinished, lets the
    /// caller go on with the next item, and parks this thread for good.
    func abort(_ error: FactoryError) -> Never {
        run.append(failure(error), at: current)
        if !canPark {
            // The main thread cannot be given up to go on with the next factory.
            fatalError(
                "FactoryTesting: graph validation cannot go on past this failure on the main actor: \(error.message)")
        }
        releaseUnfinishedBuilds()
        run.state.withLock { $0.next = current + 1 }
        signal.fire()
        ValidationThread.park()
    }

    private func failure(_ error: FactoryError) -> GraphFailure {
        let chain = ResolutionContext.current.chainKeys
        let item = run.items[current]
        switch error {
        case .circularDependency(let description):
            // The message ends with the factory resolved again, which is already in the chain.
            let repeated = description.split(separator: " > ").last.map(String.init)
            let again = chain.first { $0.description == repeated }
            return GraphFailure(
                entry: item.name, kind: .circularDependency, chain: chain + (again.map { [$0] } ?? []),
                message: error.message)
        case .crossThreadCycle:
            return GraphFailure(entry: item.name, kind: .circularDependency, chain: chain, message: error.message)
        case .unregisteredPromise(let key):
            return GraphFailure(entry: item.name, kind: .unregisteredPromise, chain: chain + [key], message: error.message)
        case .mainActorRequired(let key), .invalidTimeToLive(let key, _), .scopeCacheShared(let key),
            .scopeCacheOfAnotherFactory(let key, _), .resolvedAfterShutdown(let key), .shutdownTypeMismatch(let key):
            return GraphFailure(entry: item.name, kind: .misuse, chain: chain + [key], message: error.message)
        case .lockReentered, .lockMisused, .libraryCopies:
            // Lock misuse stops the program at once, without reaching validation; a second copy of the
            // library is found when a container is made, and names no factory.
            return GraphFailure(entry: item.name, kind: .misuse, chain: chain, message: error.message)
        }
    }

    /// A cached or singleton factory being built on this thread marks its cache
    /// entry as in progress; once the thread parks that build never finishes, and
    /// the next resolution of the factory would wait for it forever. Hand them back.
    private func releaseUnfinishedBuilds() {
        ResolutionContext.current.abandonBuilds()
    }
}
