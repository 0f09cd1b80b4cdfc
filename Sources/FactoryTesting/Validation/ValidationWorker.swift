/// Resolves the items of a ``ValidationRun`` on one validation thread, standing
/// in for the program-stopping failures of core while it does.
///
/// Set as the thread's `ResolutionContext.validation`, so only resolutions on this
/// thread report here. Lives and dies with its thread: never shared.
final class ValidationWorker: ResolutionValidating {
    private let run: ValidationRun
    private let signal: ValidationSignal
    private var current = 0

    init(run: ValidationRun, signal: ValidationSignal) {
        self.run = run
        self.signal = signal
    }

    /// Resolves the items from `start` on, then wakes the caller.
    func resolve(from start: Int) {
        let context = ResolutionContext.current
        context.validation = self
        for index in start..<run.items.count {
            current = index
            run.items[index].resolve?()
        }
        context.validation = nil
        run.state.withLock { $0.next = run.items.count }
        signal.fire()
    }

    func record(_ error: FactoryError) {
        run.append(failure(error), at: current)
    }

    /// Records `error`, clears the builds this thread leaves unfinished, lets the
    /// caller go on with the next item, and parks this thread for good.
    func abort(_ error: FactoryError) -> Never {
        run.append(failure(error), at: current)
        releaseUnfinishedBuilds()
        run.state.withLock { $0.next = current + 1 }
        signal.fire()
        ValidationThread.park()
    }

    private func failure(_ error: FactoryError) -> GraphFailure {
        let chain = Array(ResolutionContext.current.chain)
        let item = run.items[current]
        switch error {
        case .circularDependency(let description):
            // The message ends with the factory resolved again, which is already in the chain.
            let repeated = description.split(separator: " > ").last.map(String.init)
            let again = chain.first { $0.description == repeated }
            return GraphFailure(
                entry: item.name, kind: .circularDependency, chain: chain + (again.map { [$0] } ?? []),
                message: error.message)
        case .unregisteredPromise(let key):
            return GraphFailure(entry: item.name, kind: .unregisteredPromise, chain: chain + [key], message: error.message)
        }
    }

    /// A cached or singleton factory being built on this thread has a build marker
    /// in its storage; once the thread parks that build never finishes, and the next
    /// resolution of the factory would wait for it forever. Drop those entries.
    private func releaseUnfinishedBuilds() {
        for key in Set(ResolutionContext.current.chain) {
            guard let manager = manager(of: key) else { continue }
            manager.storage.remove(key)
            manager.singletons.remove(key)
        }
    }

    /// The manager of the container a key belongs to: the validated one, or the
    /// `shared` instance of another shared container type.
    private func manager(of key: FactoryKey) -> ContainerManager? {
        if ObjectIdentifier(key.containerType) == ObjectIdentifier(type(of: run.container)) {
            return run.container.manager
        }
        if let shared = key.containerType as? any SharedContainer.Type {
            return Self.sharedManager(of: shared)
        }
        return nil
    }

    private static func sharedManager<S: SharedContainer>(of type: S.Type) -> ContainerManager {
        S.shared.manager
    }
}
