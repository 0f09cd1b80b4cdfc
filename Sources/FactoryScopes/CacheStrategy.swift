import FactoryCore

/// Where a scope defined outside the library keeps the instances it caches:
/// the extension point for cache strategies.
///
/// A strategy only says where an instance lives, by returning a ``ScopeCache``;
/// the library runs the cache over it exactly as for `.cached`: a lock-free hit,
/// one build however many threads (or tasks) ask at once, time to live,
/// `scopeOnParameters`, and a `register` or reset that returned is always seen.
/// `container.manager.reset(options: .scope)`, `reset(scope:)`, `pop()` and
/// FactoryTesting's per-test restore empty every ``ScopeCache`` the container has
/// used.
///
/// ```swift
/// final class PerTask: CacheStrategy { ... }
/// extension Scope {
///     static let perTask = Scope(cacheStrategy: PerTask())
/// }
/// ```
///
/// A per-thread cache, for example, returns one ``ScopeCache`` per thread,
/// container and factory key, made on first use.
public protocol CacheStrategy: AnyObject, Sendable {
    /// The cache that holds `key`'s instance for `container` on this resolution,
    /// or `nil` to build without caching.
    ///
    /// Called on the resolving thread for every resolution of a factory in this
    /// scope, cache hits included, and again on a miss; the library holds no lock
    /// while it runs. Return the same cache for the same place every time, and a
    /// cache to one container and one factory only: a cache returned for a second
    /// container stops the program with a message naming the factory, since each
    /// container guards its caches with its own lock, and one returned for a
    /// second factory (`key`) stops it naming both, since a cache holds one
    /// factory's instances. Keep a cache with the container object (a
    /// weak reference to it), not only its `ObjectIdentifier`: a freed
    /// container's address is reused by later ones, and a cache of the freed one
    /// handed to a new one stops the program the same way.
    func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache?
}

/// One factory's cached instances in a place a ``CacheStrategy`` chose: the
/// instance without a parameter, one per parameter for `scopeOnParameters`, and
/// the build under way.
///
/// Make one per place with ``init()`` and keep it for as long as that place
/// lives; dropping it drops what it caches. It belongs to the first container
/// and the first factory it is used with: returned for another container, or
/// for another factory (another name, type or kind, asynchronous factories
/// included), it stops the program with a message naming the factory.
public final class ScopeCache: Sendable {
    /// The instances, guarded like a container's own: by its manager's lock.
    package let cells = CellSet(admitting: .anyClosure)
    /// The ``ContainerManager/serial`` of the manager this cache belongs to, 0
    /// before its first use. Set after ``factory``.
    private let owner = AtomicWord()
    /// The key of the factory this cache belongs to: set once (before ``owner``)
    /// and never replaced.
    private let factory = OwnedAtomicReference<OwningFactory>()

    /// An empty cache.
    public init() {}

    /// The key of the factory this cache belongs to, if it was used. Never
    /// replaced once set, so read without a read section.
    private var owningKey: FactoryKey? {
        factory.load()?._withUnsafeGuaranteedRef { $0.key }
    }

    /// Makes this cache `manager`'s and `key`'s on its first use, so that the
    /// container's resets empty it; stops the program if it belongs to another
    /// container or factory. Lock-free once claimed; called with no library lock
    /// held (the first use takes the manager's, once).
    func claim(for manager: ContainerManager, key: FactoryKey) {
        if owner.value == manager.serial && owningKey == key { return }
        // Another first use may win: its key is then the owner.
        if owningKey == nil { _ = factory.publishOnce(OwningFactory(key)) }
        if let owningKey, owningKey != key { FactoryError.fail(.scopeCacheOfAnotherFactory(key, owner: owningKey)) }
        if owner.value == manager.serial { return }
        if owner.compareExchange(expected: 0, desired: manager.serial) {
            manager.track(cells, for: key)
            return
        }
        FactoryError.fail(.scopeCacheShared(key))
    }
}

/// The factory a ``ScopeCache`` belongs to, published once.
private final class OwningFactory: Sendable {
    let key: FactoryKey
    init(_ key: FactoryKey) { self.key = key }
}

/// The strategy of a scope made with ``FactoryCore/Scope/init(cacheStrategy:)``:
/// the cells of the ``ScopeCache`` the user's strategy returns, asked for before
/// any lock is taken, on every resolution.
final class CustomScopeStrategy: ScopeStrategy {
    let cacheStrategy: any CacheStrategy

    init(_ cacheStrategy: any CacheStrategy) {
        self.cacheStrategy = cacheStrategy
    }

    func prepare(_ scope: Scope, key: FactoryKey, manager: ContainerManager) -> CellSet? {
        guard let cache = cacheStrategy.cache(for: key, in: manager) else { return nil }
        cache.claim(for: manager, key: key)
        return cache.cells
    }
}

extension Scope {
    /// A scope that caches where `cacheStrategy` says, with everything else a
    /// cache does (one build at a time, resets, time to live) done by the library.
    ///
    /// Like every scope, it is an identity that lives for the rest of the process:
    /// declare it once, as a `static let`.
    public convenience init(cacheStrategy: any CacheStrategy) {
        self.init(keeping: .preparedCells, label: "custom", lifetime: .unknown, strategy: CustomScopeStrategy(cacheStrategy))
    }
}
