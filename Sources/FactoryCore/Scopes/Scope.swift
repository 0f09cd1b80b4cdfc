/// How long an instance that a factory builds is kept, and who shares it. Core defines the type and
/// ``Scope/unique`` (no caching, the default); `FactoryScopes` adds `.singleton`, `.cached`, `.shared`,
/// `.graph` and custom scopes such as:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// ```
///
/// A scope that keeps its instances elsewhere (per thread, per request) is made with FactoryScopes'
/// `Scope(cacheStrategy:)` and a `CacheStrategy`. A scope is an identity: two `Cached()` instances are
/// two separate caches. Scopes hold no instances (those live in the ``ContainerManager``, in singleton
/// storage, or in the resolution cycle) and live for the rest of the process, so declare them `static let`.
open class Scope: @unchecked Sendable {
    // Sendable: its only state is immutable.

    /// How the engine finds this scope's instances; stored, so the hit reads it without a call.
    @usableFromInline package let keeping: ScopeKeeping
    /// Where a caching scope keeps them (`nil` for ``ScopeKeeping/nothing`` and ``ScopeKeeping/cycle``).
    package let strategy: (any ScopeStrategy)?
    /// How reports and graphs name the scope: `unique`, `cached`, ...
    package let label: String
    /// How long what it keeps lives, before a time to live or a per-request container shortens it.
    package let lifetime: WatchedLifetime

    package init(keeping: ScopeKeeping, label: String, lifetime: WatchedLifetime, strategy: (any ScopeStrategy)? = nil) {
        self.keeping = keeping
        self.strategy = strategy
        self.label = label
        self.lifetime = lifetime
        // Factory values refer to their scope unretained (a retain per resolution on one shared
        // object would make threads contend), so a scope must never be freed.
        Self.everyScope.withLock { $0.append(self) }
    }

    private static let everyScope = LockedBox<[Scope]>([])

    /// No caching: every resolution runs the factory closure. The default.
    public static let unique: Scope = Unique()

    /// Factory's nested name for the `Unique` class: `Scope.Unique()`, `scope is Scope.Unique`.
    public typealias Unique = FactoryCore.Unique
}

/// The scope that caches nothing: every resolution builds a new instance.
public final class Unique: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own (see Scope).

    /// Creates a unique scope. ``Scope/unique`` is the shared instance.
    public init() { super.init(keeping: .nothing, label: "unique", lifetime: .transparent) }
}

/// The engine's ways to find a scope's instance.
@usableFromInline
package enum ScopeKeeping: Sendable {
    case nothing
    /// Shared within one resolution cycle: the thread's ``ResolutionContext`` keeps it.
    case cycle
    /// Cached where the strategy's ``ScopeStrategy/location(_:key:box:containerCells:manager:)`` says, under the
    /// container's lock; the engine runs single builds, resets, time to live and `scopeOnParameters` over it.
    case cells
    /// Cached in the cells the strategy's ``ScopeStrategy/prepare(_:key:manager:)`` returns, asked for before any
    /// lock on every resolution (a custom `CacheStrategy`, which is user code); otherwise as ``cells``.
    case preparedCells
}

/// Where a caching scope keeps a factory's instance: FactoryScopes implements one per kind of cache. A strategy
/// hands back a place, the engine does the rest (hits, builds, resets) the same way for every strategy.
package protocol ScopeStrategy: AnyObject, Sendable {
    /// For ``ScopeKeeping/preparedCells``: the cells of this resolution, or `nil` to build without caching. Called
    /// with no lock held, on every resolution that is not a lock-free hit through the factory's slot.
    func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> CellSet?

    /// For ``ScopeKeeping/cells``: where `box`'s instance lives (`nil`: the definition's), or `nil` to build without
    /// caching. Called with the manager's lock held; `containerCells` are the container's own for `key`.
    func location(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, containerCells: CellSet, manager: ContainerManager
    ) -> CacheLocation?
}

extension ScopeStrategy {
    package func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> CellSet? { nil }

    package func location(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, containerCells: CellSet, manager: ContainerManager
    ) -> CacheLocation? {
        nil
    }
}

/// How long what a resolution keeps lives, for the captive-dependency check.
package enum WatchedLifetime: Sendable {
    /// Unique: the check looks past it to the nearest factory that keeps its instance.
    case transparent
    case process  // a singleton without ttl
    case container  // cached or shared in a long-lived container, without ttl
    case short  // a ttl, the graph scope, or any factory of a per-request container
    /// A custom `CacheStrategy`: neither captures nor is reported as captured.
    case unknown

    /// A time to live shortens a process or container lifetime; a per-request container shortens a container one and
    /// makes a unique resolution one of its own.
    func shortened(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        switch self {
        case .transparent: return perRequest ? .short : .transparent
        case .process: return ttl == 0 ? .process : .short
        case .container: return ttl == 0 && !perRequest ? .container : .short
        case .short, .unknown: return self
        }
    }
}
