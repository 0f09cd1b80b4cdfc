/// Resolves every listed factory and collects every failure, instead of stopping
/// the program at the first.
///
/// Items run in order on a validation thread that carries the caller's FactoryTesting
/// task-locals (`Container.shared`, the test's singletons and isolated containers).
/// When an item fails in a way resolution cannot go past (a cycle), that thread
/// records it and parks (see ``ValidationThread``), and a new thread goes on with
/// the next item. The caller blocks until the last item is done, or until
/// `patience` seconds pass in which the thread starts no new item: then it
/// records the item under way as a misuse (a deadlock, most likely) and stops,
/// leaving that thread behind.
enum GraphValidator {
    /// How long, in seconds, one item may run before validation gives up on it.
    static let patience: Double = 60

    static func validate(
        _ items: [ValidationItem], in container: any ManagedContainer, patience: Double = patience
    ) -> GraphValidationReport {
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
        resolveOnThreads(run, patience: patience)
        return run.report
    }

    /// Resolves the items of `run` from its next one on, on validation threads,
    /// and returns when the last is done, or when one was stuck for `patience`
    /// seconds; the caller has begun validation on the containers involved.
    static func resolveOnThreads(_ run: ValidationRun, patience: Double = patience) {
        let items = run.items
        let bindings = TaskLocalBindings()
        while true {
            let start = run.state.withLock { $0.next }
            guard start < items.count else { break }
            let signal = ValidationSignal()
            var progress = start
            run.state.withLock { $0.current = start }
            ValidationThread.start {
                bindings.run {
                    ValidationWorker(run: run, signal: signal).resolve(from: start)
                }
            }
            while !signal.wait(upTo: patience) {
                let stuck = run.state.withLock { state -> Int? in
                    if state.current == progress {
                        state.abandoned = true
                        return state.current
                    }
                    progress = state.current
                    return nil
                }
                guard let stuck else { continue }
                run.append(stalled(items[stuck], after: patience, skipping: items.count - stuck - 1), at: stuck)
                return
            }
        }
    }

    private static func stalled(_ item: ValidationItem, after seconds: Double, skipping rest: Int) -> GraphFailure {
        let seconds = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
        let skipped =
            switch rest {
            case 0: ""
            case 1: " and did not resolve the entry after it"
            default: " and did not resolve the \(rest) entries after it"
            }
        return GraphFailure(
            entry: item.name, kind: .misuse, chain: [],
            message: "FactoryTesting: \(item.name) did not finish resolving within \(seconds) s: a deadlock, a "
                + "factory that waits for the main actor while validation blocks it, or one that takes that long; "
                + "validation stopped there" + skipped)
    }
}
