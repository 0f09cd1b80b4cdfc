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
    package let cells = CellSet()
    /// The ``ContainerManager/serial`` of the manager this cache belongs to, 0
    /// before its first use. Set after ``factory``.
    private let owner = AtomicWord()
    /// The key of the factory this cache belongs to: an atomic, retained
    /// ``OwningFactory`` set once (before ``owner``) and never replaced, or 0.
    private let factory = AtomicWord()

    /// An empty cache.
    public init() {}

    deinit {
        _ = AtomicReference<OwningFactory>(word: factory.storage).exchange(nil)
    }

    /// The instance cached without a parameter, if this cache is `manager`'s and
    /// `key`'s (another container's or factory's cache is a miss: the miss path
    /// then reports it); lock-free, as ``CellSet/foundHit(scopeID:ttl:epoch:)``.
    /// The cells hold `key`'s instances, so their read needs no check of its own.
    package func foundHit(
        for manager: ContainerManager, key: FactoryKey, scopeID: ObjectIdentifier, ttl: UInt64
    )
        -> FoundInstance?
    {
        guard owner.value == manager.serial, owningKey == key else { return nil }
        return cells.foundHit(scopeID: scopeID, ttl: ttl, epoch: 0)
    }

    /// The key of the factory this cache belongs to, if it was used. Never
    /// replaced once set, so read without a read section.
    private var owningKey: FactoryKey? {
        AtomicReference<OwningFactory>(word: factory.storage).load()?._withUnsafeGuaranteedRef { $0.key }
    }

    /// Makes this cache `manager`'s and `key`'s on its first use, so that the
    /// container's resets empty it; stops the program if it belongs to another
    /// container or factory. Call with no library lock held (it takes the
    /// manager's, once).
    package func claim(for manager: ContainerManager, key: FactoryKey) {
        if owner.value == manager.serial && owningKey == key { return }
        if owningKey == nil {
            let made = OwningFactory(key)
            let bits = Int(bitPattern: Unmanaged.passRetained(made).toOpaque())
            // Lost to another first use: drop the extra reference.
            if !factory.compareExchange(expected: 0, desired: bits) { Unmanaged.passUnretained(made).release() }
        }
        if let owningKey, owningKey != key { FactoryError.fail(.scopeCacheOfAnotherFactory(key, owner: owningKey)) }
        if owner.value == manager.serial { return }
        if owner.compareExchange(expected: 0, desired: manager.serial) {
            manager.track(self, for: key)
            return
        }
        FactoryError.fail(.scopeCacheShared(key))
    }
}

/// The factory a ``ScopeCache`` belongs to, published once through an atomic word.
private final class OwningFactory: Sendable {
    let key: FactoryKey
    init(_ key: FactoryKey) { self.key = key }
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
        return body(cells.map { CacheLocation(cells: $0, weak: false) })
    }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        .unknown
    }

    var label: String { "custom" }
}
