// The built-in caching strategies. Each hands the engine (FactoryCore) the place
// where one factory's instance lives; the engine runs the cache over it (a
// lock-free hit through the container's slot, one build at a time, resets, time
// to live, `scopeOnParameters`).

/// `Cached` and `Shared`: the container's own cells for the factory, strong or weak,
/// whatever closure builds the instance.
final class ContainerCellsStrategy: ScopeStrategy {
    let weak: Bool  // `Shared`

    init(weak: Bool) {
        self.weak = weak
    }

    func location(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, containerCells: CellSet, manager: ContainerManager
    ) -> CacheLocation? {
        CacheLocation(cells: containerCells, weak: weak, linked: true)
    }
}

/// `Singleton`: the container's global storage, where each process-wide scope
/// keeps per factory the instance its definition builds and the one its
/// type-describing registrations (`autoRegister()`, `once()`) share; or, for a
/// registration made with `register` on one container instance, that
/// registration's own cells.
final class SingletonStrategy: ScopeStrategy {
    func location(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, containerCells: CellSet, manager: ContainerManager
    ) -> CacheLocation? {
        let storage = manager.globalStorageReference.takeUnretainedValue()
        let (entry, era) = storage.entry(scope, key)
        guard let box, !box.describesType else {
            return CacheLocation(cells: box == nil ? entry.definition : entry.shared, extraLock: storage.lock, linked: true)
        }
        // Kept with the registration, in the scope's era in this storage (a reset
        // of the scope outdates it), and published as the one the factory's
        // registrations share, as in Factory.
        if box.cells == nil { box.cells = CellSet(admitting: .anyClosure) }
        return CacheLocation(cells: box.cells!, extraLock: storage.lock, era: era, mirror: entry.shared)
    }
}
