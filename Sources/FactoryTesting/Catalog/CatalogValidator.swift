import CFactoryAtomics
import Dispatch
import FactoryCore

/// Validates every entry of a catalog in one run: the factories of every container
/// on validation threads (``GraphValidator``), those whose closure is isolated to
/// the main actor on the main thread, and everything recorded into one
/// ``ValidationRun``, so that one report and one graph come out.
enum CatalogValidator {
    static func validate(_ catalog: FactoryCatalog, _ context: CatalogContext) -> CatalogReport {
        var items: [ValidationItem] = []
        var onMain: [(index: Int, item: ValidationItem)] = []
        var containers: [ObjectIdentifier: any ManagedContainer] = [:]
        var unchecked: [FactoryCatalog.Unchecked] = []
        var mainActorReads: [(entry: FactoryCatalog.Entry, make: @MainActor @Sendable () -> CatalogItems.Made)] = []
        for entry in catalog.entries {
            switch entry.prepare(context) {
            case .item(let item, let container, let isMain):
                containers[ObjectIdentifier(container)] = container
                if isMain { onMain.append((items.count, item)) }
                items.append(item)
            case .mainActor(let container, let make):
                containers[ObjectIdentifier(container)] = container
                mainActorReads.append((entry, make))
            case .unchecked(let reason):
                unchecked.append(FactoryCatalog.Unchecked(module: entry.module, name: entry.name, reason: reason))
            }
        }
        // Main-actor properties are read on the main actor; what they give is
        // resolved there too, unless it is async (awaited like the others).
        let made = onMainThread { mainActorReads.map { ($0.entry, $0.make()) } }
        for (entry, result) in made {
            switch result {
            case .item(let item, let isMain):
                if isMain { onMain.append((items.count, item)) }
                items.append(item)
            case .unchecked(let reason):
                unchecked.append(FactoryCatalog.Unchecked(module: entry.module, name: entry.name, reason: reason))
            }
        }
        let validation = resolve(items, onMain: onMain, in: Array(containers.values))
        return CatalogReport(catalog: catalog, validation: validation, unchecked: unchecked)
    }

    /// Resolves `items`, except those of `onMain`, on validation threads; then
    /// those of `onMain` on the main thread.
    private static func resolve(
        _ items: [ValidationItem], onMain: [(index: Int, item: ValidationItem)], in containers: [any ManagedContainer]
    ) -> GraphValidationReport {
        let mainIndices = Set(onMain.map(\.index))
        // The validation threads pass over the main-actor items.
        let threadItems = items.enumerated().map { index, item in
            mainIndices.contains(index) ? ValidationItem(name: item.name) {} : item
        }
        let run = ValidationRun(items: threadItems, container: containers.first ?? Container.shared)
        // Every resolution of these containers takes the general path meanwhile, so
        // that the drawn graph and the captive-dependency check see them all.
        for container in containers { container.manager.beginValidation() }
        defer { for container in containers { container.manager.endValidation() } }
        GraphValidator.resolveOnThreads(run)
        // A thread stuck past the validator's patience stopped the run: nothing more is resolved.
        if !onMain.isEmpty && !run.state.withLock({ $0.abandoned }) {
            onMainThread {
                let signal = ValidationSignal()
                let worker = ValidationWorker(run: run, signal: signal, canPark: false)
                for (index, item) in onMain { worker.resolveHere(item, at: index) }
                // Closes the pipe the worker was given and never used.
                signal.fire()
                _ = signal.wait(upTo: 1)
            }
        }
        return run.report
    }

    /// Runs `body` on the main thread: here when this is it, else by waiting for
    /// the main queue (where the main actor runs its jobs).
    private static func onMainThread<R: Sendable>(_ body: @MainActor @Sendable () -> R) -> R {
        if cfactory_is_main_actor() { return MainActor.assumeIsolated(body) }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }
}
