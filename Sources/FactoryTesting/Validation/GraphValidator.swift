/// Resolves every listed factory and collects every failure, instead of stopping
/// the program at the first.
///
/// Items run in order on a validation thread that carries the caller's FactoryTesting
/// task-locals (`Container.shared`, the test's singletons and isolated containers).
/// When an item fails in a way resolution cannot go past (a cycle), that thread
/// records it and parks (see ``ValidationThread``), and a new thread goes on with
/// the next item. The caller blocks until the last item is done.
enum GraphValidator {
    static func validate(_ items: [ValidationItem], in container: any ManagedContainer) -> GraphValidationReport {
        let run = ValidationRun(items: items, container: container)
        for (index, item) in items.enumerated() {
            if let problem = item.problem, let message = item.message {
                run.append(GraphFailure(entry: item.name, kind: problem, chain: [], message: message), at: index)
            }
        }
        // Every resolution of the validated container takes the general path
        // meanwhile, cache hits included, so that the drawn graph and the
        // captive-dependency check see them all.
        container.manager.beginValidation()
        defer { container.manager.endValidation() }
        resolveOnThreads(run)
        return run.report
    }

    /// Resolves the items of `run` from its next one on, on validation threads,
    /// and returns when the last is done; the caller has begun validation on the
    /// containers involved.
    static func resolveOnThreads(_ run: ValidationRun) {
        let items = run.items
        let bindings = TaskLocalBindings()
        while true {
            let start = run.state.withLock { $0.next }
            guard start < items.count else { break }
            let signal = ValidationSignal()
            ValidationThread.start {
                bindings.run {
                    ValidationWorker(run: run, signal: signal).resolve(from: start)
                }
            }
            signal.wait()
        }
    }
}
