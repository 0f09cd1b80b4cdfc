/// A per-container cache. `Scope.cached` is one; declare more for caches that
/// reset independently:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// extension Container {
///     var user: Factory<UserSession> { self { UserSession() }.scope(.session) }
/// }
/// Container.shared.manager.reset(scope: .session)   // on logout
/// ```
///
/// Like every scope, a `Cached` instance lives for the rest of the process:
/// declare custom scopes as `static let`.
public final class Cached: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in the container's cache.

    /// Creates a cache distinct from every other scope.
    public init() {
        super.init(keeping: .cells, label: "cached", lifetime: .container, strategy: ContainerCellsStrategy(weak: false))
    }
}

/// A per-container scope that holds instances weakly. `Scope.shared` is one.
///
/// The instance is kept while something else holds a strong reference to it;
/// after that the next resolution builds a new one. Values that are not class
/// instances (structs, enums, `nil`) cannot be held weakly and are never cached.
public final class Shared: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in the container's cache.

    /// Creates a weak cache distinct from every other scope.
    public init() {
        super.init(keeping: .cells, label: "shared", lifetime: .container, strategy: ContainerCellsStrategy(weak: true))
    }
}

/// A process-wide scope. `Scope.singleton` is the one most apps use; another
/// instance is a process-wide cache of its own, reset independently:
///
/// ```swift
/// extension Scope {
///     static let session = Singleton()
/// }
/// Scope.session.reset()   // leaves Scope.singleton's instances alone
/// ```
///
/// Its instances are shared by the containers that use the same singleton
/// storage (the process's; FactoryTesting's traits give each test its own), per
/// factory, and kept apart by where they come from: one built from the
/// factory's definition, one shared by the registrations `autoRegister()` and
/// `once()` make, and one per registration made with `register` on one
/// container instance, which stays with that registration.
/// `manager.reset(scope: .singleton)` does nothing, as in Factory: a container
/// does not own the singletons; use ``reset()``.
public final class Singleton: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in singleton storage.

    /// Creates a process-wide scope distinct from every other scope.
    public init() {
        super.init(keeping: .cells, label: "singleton", lifetime: .process, strategy: SingletonStrategy())
    }

    /// Drops every instance of this scope, so each is built again on its next
    /// resolution.
    ///
    /// Inside a FactoryTesting container trait this resets that test's
    /// instances only. Those built from a registration made on one container are
    /// released the next time that factory resolves there, or with the
    /// registration.
    public func reset() {
        GlobalStorage.current.resetAll(scope: self)
    }
}

/// The scope that shares an instance within one resolution cycle. `Scope.graph` is the one to use.
///
/// ```swift
/// var idProvider: Factory<any IDProviding> { self { self.common() } }
/// var valueProvider: Factory<any ValueProviding> { self { self.common() } }
/// private var common: Factory<CommonService> { self { CommonService() }.graph }
/// ```
///
/// A consumer resolved from a factory gets the same `CommonService` through both
/// providers. The cycle needs a root: two sibling `@Injected` properties of an
/// object you create yourself are two separate cycles. Cycles belong to their
/// thread, so two threads resolving at once never share a graph instance.
/// Synchronous factories only: an asynchronous one's `await`s leave the thread
/// its cycle belongs to, so `.graph` does not compile on it, and as a
/// container's default scope it caches nothing there.
public final class Graph: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in each thread's resolution context.

    init() {
        super.init(keeping: .cycle, label: "graph", lifetime: .short)
    }
}

extension Scope {
    /// One instance for the whole process, shared by every container instance
    /// that resolves the factory from its definition.
    ///
    /// Reset by ``Singleton/reset()`` or `manager.reset(options: .singletons)`;
    /// a container-wide `.all` reset leaves singletons alone. A factory's own
    /// `reset(.scope)` drops that factory's singleton. A singleton built from a
    /// mock registered on one container instance stays with that registration:
    /// other instances keep the definition's singleton.
    public static let singleton = Singleton()

    /// One instance per container instance, until that container's scope cache
    /// is reset (`manager.reset(scope: .cached)` or `manager.reset(options: .scope)`).
    public static let cached = Cached()

    /// Held weakly: the instance lives as long as someone else holds it, and the
    /// next resolution after that builds a new one. For class instances only; other
    /// values are never cached.
    public static let shared = Shared()

    /// One instance per resolution cycle: everything resolved inside one top-level
    /// resolution shares it; the next top-level resolution gets a new one.
    public static let graph = Graph()

    // Factory's nested names, for code written against them: `Scope.Singleton()`, `scope is Scope.Cached`.

    /// Factory's nested name for the `Cached` class.
    public typealias Cached = FactoryScopes.Cached
    /// Factory's nested name for the `Shared` class.
    public typealias Shared = FactoryScopes.Shared
    /// Factory's nested name for the `Singleton` class.
    public typealias Singleton = FactoryScopes.Singleton
    /// Factory's nested name for the `Graph` class; `.graph` is its one instance.
    public typealias Graph = FactoryScopes.Graph
}

// Each standard scope, unretained (scopes are never freed), from a call to the
// library, so that a definition does not compile the accessor of the lazy global
// `Scope.cached` and its kin. One function per scope: a switch over an argument
// would put its branches on every definition's path.
extension FactoryRegistration {
    @usableFromInline
    static func singletonScope() -> Unmanaged<Scope> {
        Unmanaged.passUnretained(Scope.singleton)
    }

    @usableFromInline
    static func cachedScope() -> Unmanaged<Scope> {
        Unmanaged.passUnretained(Scope.cached)
    }

    @usableFromInline
    static func sharedScope() -> Unmanaged<Scope> {
        Unmanaged.passUnretained(Scope.shared)
    }

    @usableFromInline
    static func graphScope() -> Unmanaged<Scope> {
        Unmanaged.passUnretained(Scope.graph)
    }
}

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

extension GlobalStorage {
    #if SwiftConcurrency
    /// The storage FactoryTesting binds for the running test, if any.
    @TaskLocal package static var testStorage: GlobalStorage?
    #else
    /// Without the `SwiftConcurrency` trait there is no test storage.
    package static var testStorage: GlobalStorage? { nil }
    #endif

    /// The storage a scope's `reset()` resets: the running test's, else the process's.
    package static var current: GlobalStorage {
        testStorage ?? process
    }
}
