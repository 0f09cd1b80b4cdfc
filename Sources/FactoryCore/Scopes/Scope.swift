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
/// is made with ``init(cacheStrategy:)`` and a ``CacheStrategy``.
///
/// A scope is an identity: two `Cached()` instances are two separate caches.
/// Scope objects hold no instances (those live in the container's
/// ``ContainerManager``, in singleton storage, or in the resolution cycle) and
/// live for the rest of the process once created, so declare them as `static let`.
open class Scope: @unchecked Sendable {
    // Sendable because a scope's only state is immutable: its strategy and what it says.

    /// Where and how instances of this scope are kept: implemented in
    /// `FactoryScopes` for the built-in caching scopes, here for ``unique`` and
    /// custom ones.
    package let strategy: any ScopeStrategy
    /// The strategy of a scope made with ``init(cacheStrategy:)``.
    @usableFromInline package let cacheStrategy: (any CacheStrategy)?
    /// How a resolution finds an instance of this scope (the strategy's
    /// ``ScopeStrategy/keeping``), stored so the hit path reads it without a
    /// protocol call: `.nothing` is the one case it tells apart.
    @usableFromInline package let keeping: ScopeKeeping

    package init(strategy: any ScopeStrategy) {
        self.strategy = strategy
        keeping = strategy.keeping
        cacheStrategy = nil
        Self.keepForever(self)
    }

    /// A scope that caches where `cacheStrategy` says, with everything else a
    /// cache does (one build at a time, resets, time to live) done by the library.
    ///
    /// Like every scope, it is an identity that lives for the rest of the process:
    /// declare it once, as a `static let`.
    public init(cacheStrategy: any CacheStrategy) {
        strategy = CustomScopeStrategy()
        keeping = .cells
        self.cacheStrategy = cacheStrategy
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
/// ``Scope/unique`` and custom scopes (``CacheStrategy``); `FactoryScopes`
/// implements cached, shared, singleton and graph.
///
/// The engine asks it only off the hit path: a hit reads the cells the
/// container's slot links to (``Slot/linkedCell(scopeID:ttl:)``), which a miss links
/// through ``withLocation(scope:box:slot:key:manager:fetched:_:)``.
package protocol ScopeStrategy: AnyObject, Sendable {
    /// How a resolution finds an instance of this scope; constant.
    var keeping: ScopeKeeping { get }

    /// Runs `body` with where `key`'s instance lives when built by the
    /// registration or override `box` (`nil`: the definition), or with `nil`
    /// when it is not cached here. The manager's lock is held; a location whose
    /// cells another lock guards names it (``CacheLocation/extraLock``), and the
    /// engine holds it while deciding there. Sets ``CacheLocation/hitSlot`` when
    /// the container's lock-free hit may read the cells.
    func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        fetched: FetchedScopeCache, _ body: (CacheLocation?) -> Result
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
    /// Nothing is cached in cells: what a strategy that keeps no cells says.
    package func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        fetched: FetchedScopeCache, _ body: (CacheLocation?) -> Result
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
