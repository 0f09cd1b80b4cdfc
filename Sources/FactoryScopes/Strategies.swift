// The built-in caching strategies. Each tells the engine (FactoryCore) where one
// factory's instance lives; the engine runs the cache over those cells (a
// lock-free hit through the container's slot, one build at a time, resets, time
// to live, `scopeOnParameters`).

/// `Cached` and `Shared`: the container's own cells for the factory, strong or weak.
final class ContainerCellsStrategy: ScopeStrategy {
    /// Whether instances are held weakly (``Shared``).
    let weak: Bool

    init(weak: Bool) {
        self.weak = weak
    }

    var keeping: ScopeKeeping { .cells }

    func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        prepared: PreparedCells, _ body: (CacheLocation?) -> Result
    ) -> Result {
        body(.containerCells(of: slot, weak: weak))
    }

    func registrationCells(
        for key: FactoryKey, box: RegistrationBoxBase, in manager: ContainerManager
    )
        -> Unmanaged<CellSet>?
    {
        manager.findSlot(key)?._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.cells) }
    }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        ttl == 0 && !perRequest ? .container : .short
    }

    var label: String { weak ? "shared" : "cached" }
}

/// `Singleton`: the container's global storage (see ``SingletonTable`` for
/// which instance a container shares with which), or a registration's own cells.
final class SingletonStrategy: ScopeStrategy {
    var keeping: ScopeKeeping { .cells }

    func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        prepared: PreparedCells, _ body: (CacheLocation?) -> Result
    ) -> Result {
        let storage = manager.globalStorageReference.takeUnretainedValue()
        if let box, !box.describesType {
            // A registration of one container instance keeps its singleton with it,
            // in the storage's era (a reset of the whole storage outdates it), and
            // also publishes it as the one the factory's registrations share.
            if box.cells == nil { box.cells = CellSet() }
            let era = storage.lock.withLock { storage.singletons.era }
            var location = CacheLocation(cells: box.cells!, weak: false, epoch: era.value, epochCounter: era)
            location.storeObserver = storage
            return body(location)
        }
        let singleton = storage.lock.withLock { storage.singletons.slot(key) }
        var location = CacheLocation(cells: box == nil ? singleton.definition : singleton.shared, weak: false)
        location.extraLock = storage.lock
        // The definition's instance is what the container's lock-free hit reads.
        if box == nil { location.hitSlot = slot }
        return body(location)
    }

    func registrationCells(
        for key: FactoryKey, box: RegistrationBoxBase, in manager: ContainerManager
    )
        -> Unmanaged<CellSet>?
    {
        // A registration's own singleton is read under the lock, with its era.
        guard box.describesType else { return nil }
        return manager.globalStorageReference._withUnsafeGuaranteedRef { storage in
            storage.loadedSingletons?._withUnsafeGuaranteedRef { singletons in
                singletons.find(key)?._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.shared) }
            }
        }
    }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        ttl == 0 ? .process : .short
    }

    var label: String { "singleton" }
}

/// Publishes the singleton a registration of one container built as the storage's
/// shared one of the factory: Factory's behaviour, where the last singleton a
/// registration built is the one that containers whose registration describes
/// the type (`autoRegister()`) see.
extension GlobalStorage: CacheStoreObserver {
    package func stored(_ cell: CacheCell, value: UnsafeRawPointer, type: Any.Type, key: FactoryKey, _ garbage: inout Garbage) {
        // The same record as the registration's own cell: one instance, one shutdown.
        guard
            let shared = CacheCell.make(
                copying: value, type: type, weak: false, scopeID: cell.scopeID, createdAt: cell.createdAt, epoch: 0,
                shutdown: cell.shutdown)
        else { return }
        lock.withLock { singletons.slot(key).shared.setCell(shared, &garbage) }
    }
}

/// `Graph`: the resolution cycle keeps the instance; no cells.
final class GraphStrategy: ScopeStrategy {
    var keeping: ScopeKeeping { .cycle }

    func findInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?
    ) -> FoundInstance? {
        for index in context.cycleInstances.indices {
            guard context.cycleInstances[index].container == container && context.cycleInstances[index].key == key else {
                continue
            }
            // Copied out before comparing: `==` is the parameter type's, user code that may
            // resolve graph factories and so append to the instances (which may move their
            // storage). Instances are only removed when the cycle ends, so indices stay valid.
            let stored = context.cycleInstances[index].parameter
            guard stored == parameter else { continue }
            return context.cycleInstances[index].cell.found()
        }
        return nil
    }

    func keepInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?,
        value: UnsafeRawPointer
    ) {
        guard
            let cell = CacheCell.make(
                copying: value, type: key.valueType, weak: false, scopeID: ObjectIdentifier(GraphStrategy.self),
                createdAt: 0, epoch: 0, shutdown: nil)
        else { return }
        context.cycleInstances.append(
            ResolutionContext.CycleInstance(key: key, container: container, parameter: parameter, cell: cell))
    }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        .short
    }

    var label: String { "graph" }
}
