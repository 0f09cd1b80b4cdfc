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
        fetched: FetchedScopeCache, _ body: (CacheLocation?) -> Result
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
        fetched: FetchedScopeCache, _ body: (CacheLocation?) -> Result
    ) -> Result {
        let storage = manager.globalStorageReference.takeUnretainedValue()
        if let box, !box.describesType {
            // A registration of one container instance keeps its singleton with it.
            if box.singletonCells == nil { box.singletonCells = CellSet() }
            return body(
                CacheLocation(
                    cells: box.singletonCells!, weak: false, era: storage.era.value, storage: storage, writeThrough: true))
        }
        return storage.lock.withLock {
            let singleton = storage.singletons.slot(key)
            var location = CacheLocation(
                cells: box == nil ? singleton.definition : singleton.shared, weak: false, era: 0, storage: storage,
                writeThrough: false)
            location.storageLocked = true
            // The definition's instance is what the container's lock-free hit reads.
            if box == nil { location.hitSlot = slot }
            return body(location)
        }
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

/// `Graph`: the resolution cycle keeps the instance; no cells.
final class GraphStrategy: ScopeStrategy {
    var keeping: ScopeKeeping { .cycle }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        .short
    }

    var label: String { "graph" }
}
