/// The engine's three ways to find an instance; a scope's strategy picks one.
@usableFromInline
package enum ScopeKeeping: Sendable {
    case nothing
    /// Shared within one resolution cycle (the thread's ``ResolutionContext`` keeps it).
    case cycle
    /// Cached in cells the strategy places; the engine runs single builds, resets, ttl and `scopeOnParameters`.
    case cells
}

/// How a scope keeps instances and, for a cache, where a factory's instance lives (FactoryScopes
/// implements all but ``Scope/unique``). Asked only off the hit path: a hit reads the cells the
/// slot links to (``Slot/linkedCell(scopeID:ttl:)``), which a miss links through
/// ``withLocation(scope:box:slot:key:manager:prepared:_:)``.
package protocol ScopeStrategy: AnyObject, Sendable {
    var keeping: ScopeKeeping { get }  // constant

    /// Called on a miss before the container's lock: a strategy that asks user code where to
    /// cache does it here, as user code never runs under a library lock.
    func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> PreparedCells

    /// The general path's lock-free read for `box` (`nil`: the definition); `nil` on a miss or
    /// where only the locked decision can tell. No lock held.
    func lockFreeHit(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, ttl: UInt64, manager: ContainerManager
    ) -> FoundInstance?

    /// Runs `body` with where `box`'s instance lives (`nil`: not cached here), with the manager's
    /// lock held; cells another lock guards name it (``CacheLocation/extraLock``) and the engine
    /// holds it too. Sets ``CacheLocation/hitSlot`` when the lock-free hit may read the cells.
    func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        prepared: PreparedCells, _ body: (CacheLocation?) -> Result
    ) -> Result

    /// The cells holding `box`'s instance, or `nil` to decide under the lock. Called inside a read
    /// section (pure loads, no nested section); valid until it ends.
    func registrationCells(
        for key: FactoryKey, box: RegistrationBoxBase, in manager: ContainerManager
    ) -> Unmanaged<CellSet>?

    func findInCycle(  // for `.cycle`; `parameter` is set with `scopeOnParameters`
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?
    ) -> FoundInstance?

    func keepInCycle(  // for `.cycle`; `value` points at `key`'s value type
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?,
        value: UnsafeRawPointer
    )

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime  // for captive-dependency checks

    /// `unique`, `cached`, ...: how reports and graphs name the scope.
    var label: String { get }
}

extension ScopeStrategy {
    package func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> PreparedCells {
        PreparedCells()
    }

    /// The definition's instance is where the slot's hit reads; a registration's comes from
    /// ``registrationCells(for:box:in:)``.
    package func lockFreeHit(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, ttl: UInt64, manager: ContainerManager
    ) -> FoundInstance? {
        guard keeping == .cells else { return nil }
        // Section first: the cells may be a global storage's, freed only after waiting for readers.
        let section = ReadSection.begin()
        defer { section.end() }
        let cells =
            box.map { registrationCells(for: key, box: $0, in: manager) }
            ?? manager.findSlot(key)?._withUnsafeGuaranteedRef { $0.hitLink.load() }
        return cells?._withUnsafeGuaranteedRef { $0.validCell(scopeID: ObjectIdentifier(scope), ttl: ttl, epoch: 0) }?
            .takeUnretainedValue().found()
    }

    package func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        prepared: PreparedCells, _ body: (CacheLocation?) -> Result
    ) -> Result {
        body(nil)
    }

    package func registrationCells(
        for key: FactoryKey, box: RegistrationBoxBase, in manager: ContainerManager
    ) -> Unmanaged<CellSet>? {
        nil
    }

    package func findInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?
    ) -> FoundInstance? {
        nil
    }

    package func keepInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?,
        value: UnsafeRawPointer
    ) {}
}

/// The cells ``ScopeStrategy/prepare(_:key:manager:)`` chose before the lock, for the scope then resolved.
package struct PreparedCells {
    private let scopeID: ObjectIdentifier?
    private let cells: CellSet?

    package init() {
        scopeID = nil
        cells = nil
    }

    package init(_ cells: CellSet?, for scope: Scope) {  // `nil` cells: build without caching
        scopeID = ObjectIdentifier(scope)
        self.cells = cells
    }

    /// `nil` if a `register` changed the scope since: this resolution then builds uncached, once.
    package func cells(for scope: Scope) -> CellSet? { scopeID == ObjectIdentifier(scope) ? cells : nil }
}

/// A custom scope's cache, emptied with a factory's own cells on a reset, `pop()` or shutdown;
/// tracked weakly, as its strategy owns it.
package protocol CellOwner: AnyObject {
    var cells: CellSet { get }
}

package struct TrackedCells {
    package weak var owner: (any CellOwner)?
}
