/// How long an instance that a factory builds is kept, and who shares it.
///
/// Core defines the type and ``Scope/unique`` (no caching, the default).
/// `FactoryScopes` adds `.singleton`, `.cached`, `.shared`, `.graph` and custom
/// scopes such as:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// ```
///
/// A scope that keeps its instances somewhere else (per thread, per request)
/// is made with FactoryScopes' `Scope(cacheStrategy:)` and a `CacheStrategy`.
///
/// A scope is an identity: two `Cached()` instances are two separate caches.
/// Scope objects hold no instances (those live in the container's
/// ``ContainerManager``, in singleton storage, or in the resolution cycle) and
/// live for the rest of the process once created, so declare them as `static let`.
open class Scope: @unchecked Sendable {
    // Sendable because a scope's only state is immutable: its strategy and what it says.

    /// Where and how instances of this scope are kept: implemented in
    /// `FactoryScopes` for every scope but ``unique``.
    package let strategy: any ScopeStrategy
    /// How a resolution finds an instance of this scope (the strategy's
    /// ``ScopeStrategy/keeping``), stored so the hit path reads it without a
    /// protocol call: `.nothing` is the one case it tells apart.
    @usableFromInline package let keeping: ScopeKeeping

    package init(strategy: any ScopeStrategy) {
        self.strategy = strategy
        keeping = strategy.keeping
        Self.keepForever(self)
    }

    /// Factory values refer to their scope without retaining it (a retain per
    /// resolution on one shared object would make threads contend), so a scope
    /// must never be freed.
    private static func keepForever(_ scope: Scope) {
        everyScope.withLock { $0.append(scope) }
    }

    private static let everyScope = LockedBox<[Scope]>([])

    /// No caching: every resolution runs the factory closure. The default.
    public static let unique: Scope = Unique()
}

/// The scope that caches nothing: every resolution builds a new instance.
public final class Unique: Scope, @unchecked Sendable {
    // Sendable for the same reason as Scope: no stored state of its own.

    /// Creates a unique scope. ``Scope/unique`` is the shared instance.
    public init() {
        super.init(strategy: UniqueStrategy())
    }
}

/// How a resolution finds an instance: the engine's three ways. Which one a
/// scope uses is its strategy's choice.
@usableFromInline
package enum ScopeKeeping: Sendable {
    /// It builds every time.
    case nothing
    /// It shares an instance within one resolution cycle (the thread's
    /// ``ResolutionContext`` keeps it).
    case cycle
    /// It caches in cells (``CellSet``) that the strategy places, with one build
    /// at a time, resets, time to live and `scopeOnParameters` run by the engine.
    case cells
}

/// What a scope's strategy tells the engine: the way it keeps instances and,
/// for a cache, where one factory's instance lives. FactoryCore implements
/// ``Scope/unique``; `FactoryScopes` implements cached, shared, singleton, graph
/// and custom cache strategies.
///
/// The engine asks it only off the hit path: a hit reads the cells the
/// container's slot links to (``Slot/linkedCell(scopeID:ttl:)``), which a miss links
/// through ``withLocation(scope:box:slot:key:manager:prepared:_:)``.
package protocol ScopeStrategy: AnyObject, Sendable {
    /// How a resolution finds an instance of this scope; constant.
    var keeping: ScopeKeeping { get }

    /// What a resolution of `key` that missed needs before the container's lock
    /// is taken: a strategy that asks user code where to cache does it here, as
    /// user code never runs under a library lock. No lock held.
    func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> PreparedCells

    /// The instance of `key` kept in this scope for the registration or override
    /// `box` (`nil`: the definition), read without a lock by the general path;
    /// `nil` on a miss and where only the locked decision can tell. No lock held.
    func lockFreeHit(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, ttl: UInt64, manager: ContainerManager
    ) -> FoundInstance?

    /// Runs `body` with where `key`'s instance lives when built by the
    /// registration or override `box` (`nil`: the definition), or with `nil`
    /// when it is not cached here. The manager's lock is held; a location whose
    /// cells another lock guards names it (``CacheLocation/extraLock``), and the
    /// engine holds it while deciding there. Sets ``CacheLocation/hitSlot`` when
    /// the container's lock-free hit may read the cells.
    func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        prepared: PreparedCells, _ body: (CacheLocation?) -> Result
    ) -> Result

    /// The cells holding the instance that `box` built, read without a lock by
    /// a resolution off the hit path, or `nil` to decide under the lock. Called
    /// inside a read section (so pure loads only, no nested section); valid until
    /// that section ends.
    func registrationCells(
        for key: FactoryKey, box: RegistrationBoxBase, in manager: ContainerManager
    )
        -> Unmanaged<CellSet>?

    /// For a scope that keeps instances for the resolution cycle: the instance
    /// `context`'s cycle keeps for `key` of the container `container` (and
    /// `parameter`, with `scopeOnParameters`), or `nil` when there is none yet.
    func findInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?
    ) -> FoundInstance?

    /// For a scope that keeps instances for the resolution cycle: keeps the
    /// instance at `value` (of `key`'s value type) for the rest of `context`'s cycle.
    func keepInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?,
        value: UnsafeRawPointer
    )

    /// How long what this scope keeps lives, for captive-dependency checks.
    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime

    /// How reports and drawn graphs name the scope (`unique`, `cached`, ...).
    var label: String { get }
}

extension ScopeStrategy {
    /// Nothing to prepare.
    package func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> PreparedCells {
        PreparedCells()
    }

    /// The instance the cells the strategy places hold: for the definition, where
    /// the slot's hit reads (linked by a miss, once per container and storage);
    /// for a registration, ``registrationCells(for:box:in:)``.
    package func lockFreeHit(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, ttl: UInt64, manager: ContainerManager
    ) -> FoundInstance? {
        guard keeping == .cells else { return nil }
        // The section comes first: the cells may be a global storage's, which
        // `useGlobalStorage` frees only after waiting for readers.
        let section = ReadSection.begin()
        defer { section.end() }
        let cells =
            box.map { registrationCells(for: key, box: $0, in: manager) }
            ?? manager.findSlot(key)?._withUnsafeGuaranteedRef { $0.hitLink.load() }
        return cells?._withUnsafeGuaranteedRef { $0.validCell(scopeID: ObjectIdentifier(scope), ttl: ttl, epoch: 0) }?
            .takeUnretainedValue().found()
    }

    /// Nothing is cached in cells: what a strategy that keeps no cells says.
    package func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        prepared: PreparedCells, _ body: (CacheLocation?) -> Result
    ) -> Result {
        body(nil)
    }

    /// No lock-free read of a registration's instance: the miss path decides under the lock.
    package func registrationCells(
        for key: FactoryKey, box: RegistrationBoxBase, in manager: ContainerManager
    )
        -> Unmanaged<CellSet>?
    {
        nil
    }

    /// Nothing is kept for the cycle: what a strategy that keeps no cycle instances says.
    package func findInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?
    ) -> FoundInstance? {
        nil
    }

    /// Nothing is kept for the cycle.
    package func keepInCycle(
        _ context: ResolutionContext, _ key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?,
        value: UnsafeRawPointer
    ) {}
}

/// ``Scope/unique``'s strategy: nothing is kept.
final class UniqueStrategy: ScopeStrategy {
    var keeping: ScopeKeeping { .nothing }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        perRequest ? .short : .transparent
    }

    var label: String { "unique" }
}

/// The cells a strategy chose for one resolution before the container's lock was
/// taken (see ``ScopeStrategy/prepare(_:key:manager:)``), for the scope it
/// resolved then.
package struct PreparedCells {
    private let scopeID: ObjectIdentifier?
    private let cells: CellSet?

    /// Nothing prepared.
    package init() {
        scopeID = nil
        cells = nil
    }

    /// `cells` (`nil`: build without caching), chosen for `scope`.
    package init(_ cells: CellSet?, for scope: Scope) {
        scopeID = ObjectIdentifier(scope)
        self.cells = cells
    }

    /// The cells, if they were prepared for `scope`: a `register` that changed the
    /// scope since makes this resolution build without caching, once.
    package func cells(for scope: Scope) -> CellSet? {
        scopeID == ObjectIdentifier(scope) ? cells : nil
    }
}

/// An owner of cells that a container empties with a factory's own on a reset,
/// `pop()` or shutdown: a custom scope's cache. Tracked weakly: its strategy owns it.
package protocol CellOwner: AnyObject {
    var cells: CellSet { get }
}

/// A ``CellOwner`` a container has used, held weakly.
package struct TrackedCells {
    package weak var owner: (any CellOwner)?
}
