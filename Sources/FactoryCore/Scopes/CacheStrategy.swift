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
    /// cache to one container only: a cache returned for a second container stops
    /// the program with a message naming the factory, since each container guards
    /// its caches with its own lock. Keep a cache with the container object (a
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
/// lives; dropping it drops what it caches. It belongs to the first container it
/// is used with.
public final class ScopeCache: Sendable {
    /// The instances, guarded like a container's own: by its manager's lock.
    package let cells = CellSet()
    /// The ``ContainerManager/serial`` of the manager this cache belongs to, 0 before its first use.
    private let owner = AtomicWord()

    /// An empty cache.
    public init() {}

    /// The instance cached without a parameter, if this cache is `manager`'s
    /// (a cache of another container is a miss: the miss path then reports it);
    /// lock-free, as ``CellSet/hit(_:scopeID:ttl:era:)``.
    package func hit<T>(_ type: T.Type, for manager: ContainerManager, scopeID: ObjectIdentifier, ttl: UInt64) -> T? {
        guard owner.value == manager.serial else { return nil }
        return cells.hit(T.self, scopeID: scopeID, ttl: ttl, era: 0)
    }

    /// Makes this cache `manager`'s on its first use, so that the container's
    /// resets empty it; stops the program if it belongs to another container.
    /// Call with no library lock held (it takes the manager's, once).
    package func claim(for manager: ContainerManager, key: FactoryKey) {
        if owner.value == manager.serial { return }
        if owner.compareExchange(expected: 0, desired: manager.serial) {
            manager.track(self, for: key)
            return
        }
        FactoryError.fail(.scopeCacheShared(key))
    }
}

/// A ``ScopeCache`` a container has used, held weakly: the strategy owns it.
package struct UsedScopeCache {
    package weak var cache: ScopeCache?
}

extension Scope {
    /// The custom strategy's cache for `key` in `manager`, or `nil` for a scope
    /// that is not custom or a strategy that caches nothing. Calls the strategy:
    /// never with a library lock held.
    @usableFromInline
    package func customCache(for key: FactoryKey, in manager: ContainerManager) -> ScopeCache? {
        cacheStrategy?.cache(for: key, in: manager)
    }
}

/// The custom cache a resolution fetched before taking the container's lock
/// (the strategy is user code, which never runs under a library lock), for the
/// scope it resolved then.
package struct FetchedScopeCache {
    let scopeID: ObjectIdentifier?
    let cache: ScopeCache?

    init(scope: Scope?, key: FactoryKey, manager: ContainerManager) {
        guard let scope, scope.cacheStrategy != nil else {
            scopeID = nil
            cache = nil
            return
        }
        scopeID = ObjectIdentifier(scope)
        cache = scope.customCache(for: key, in: manager)
        cache?.claim(for: manager, key: key)
    }

    /// The cache, if it was fetched for `scope`: a `register` that changed the
    /// scope since makes this resolution build without caching, once.
    func cache(for scope: Scope) -> ScopeCache? {
        scopeID == ObjectIdentifier(scope) ? cache : nil
    }
}

/// The strategy of a scope made with ``Scope/init(cacheStrategy:)``: the cells of
/// the ``ScopeCache`` the user's strategy returned, fetched before locking.
final class CustomScopeStrategy: ScopeStrategy {
    var keeping: ScopeKeeping { .cells }

    func withLocation<Result>(
        scope: Scope, box: RegistrationBoxBase?, slot: Slot, key: FactoryKey, manager: ContainerManager,
        fetched: FetchedScopeCache, _ body: (CacheLocation?) -> Result
    ) -> Result {
        // Guarded by the manager's lock, like the container's own cells. Never
        // linked: the strategy may return another cache on the next resolution.
        let cells = fetched.cache(for: scope)?.cells
        return body(cells.map { CacheLocation(cells: $0, weak: false, era: 0, storage: nil, writeThrough: false) })
    }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        .unknown
    }

    var label: String { "custom" }
}
