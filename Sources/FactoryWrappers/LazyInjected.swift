/// Resolves a dependency the first time the property is read.
///
/// ```swift
/// final class ServicesP {
///     @LazyInjected(\.servicesC) var service
///     func test() -> String? { service.name }   // ServicesC is built here, not in init
/// }
/// ```
///
/// The container is chosen when the enclosing object is created (the `shared`
/// instance of the key path's container at that moment, task-local for
/// ``Container``); the factory runs on first read. A `register` on that container
/// made after the object was created but before the first read is therefore used;
/// one made after the first read is not, until ``resolve(reset:)``.
///
/// Exactly once: when several threads read the property for the first time at
/// the same moment, one of them resolves and the others wait for its result;
/// the factory closure runs once and every reader gets the same value. While
/// the closure runs, no lock is held that another resolution could need: waiters
/// wait on a latch that belongs to this property alone. A factory that reads the
/// property it is resolving, directly or through others, is a circular dependency
/// and stops the program with the chain, as the container does for factories.
///
/// Projected value: `$service.resolve(reset:)` resolves again,
/// `$service.resolvedOrNil()` returns the value only if it was already resolved
/// (handy in `deinit`), `$service.factory` is the factory.
///
/// Copies of the wrapper share their state: the value resolved, assigned or
/// re-resolved through one copy is seen by all of them.
///
/// Thread safety and isolation: every member may be used from any thread;
/// the wrapper is `Sendable` when `T` is. It works in classes, structs, actors and
/// `@MainActor` types. A non-isolated `Sendable` class cannot hold a property
/// wrapper (Swift stores it in a `var`), and a `@MainActor` class's `deinit` cannot
/// read its isolated wrappers; in both cases declare the wrapper as a `let`,
/// which is fully functional because the state is shared:
///
/// ```swift
/// final class Handler: Sendable {
///     private let service = LazyInjected(\.service)
///     func handle() { service.wrappedValue.run() }
/// }
/// ```
@propertyWrapper
public struct LazyInjected<T> {
    private let cell = LazyCell<T>()

    /// The factory this property resolves from, bound to the container chosen at
    /// initialization.
    public let factory: Factory<T>

    /// Prepares to resolve `keyPath` on the `Container.shared` of this moment, on first read.
    ///
    /// - Parameter keyPath: A factory of ``Container``: `\.myService`.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(Container.shared[keyPath: keyPath])
    }

    /// Prepares to resolve `keyPath` on `C.shared`, on first read.
    ///
    /// - Parameter keyPath: A factory of a shared container: `\OrderContainer.orders`.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(C.shared[keyPath: keyPath])
    }

    /// Prepares to resolve `factory` on first read; for containers that are not
    /// shared, or a specific container instance.
    ///
    /// - Parameter factory: The factory to resolve, already bound to its container.
    public init(_ factory: Factory<T>) {
        self.factory = factory
    }

    /// The dependency, resolved on the first read. Assigning replaces it (and
    /// counts as the first resolution if nothing was resolved yet).
    public var wrappedValue: T {
        get { cell.slot(key: factory.key) { factory.resolve() } }
        nonmutating set { cell.store(newValue) }
    }

    /// The wrapper itself, for `$service.resolve()`, `$service.resolvedOrNil()`
    /// and `$service.factory`.
    public var projectedValue: LazyInjected<T> {
        self
    }

    /// Resolves the factory again and keeps the result, whether or not the
    /// property was read before.
    ///
    /// Serialized with a first read in progress on another thread: it waits for
    /// that resolution, then resolves again.
    ///
    /// - Parameter options: What to reset on the factory before resolving, e.g.
    ///   `.scope` to drop its cached instance. The default resets nothing.
    /// - Returns: The newly resolved value.
    @discardableResult
    public func resolve(reset options: FactoryResetOptions = .none) -> T {
        if !options.isEmpty { factory.reset(options) }
        return cell.slot(key: factory.key, refresh: true) { factory.resolve() }
    }

    /// The value if the property was already resolved or assigned, else `nil`,
    /// without resolving it:
    ///
    /// ```swift
    /// deinit {
    ///     $service.resolvedOrNil()?.cleanup()
    /// }
    /// ```
    ///
    /// When `T` is itself optional, a resolved `nil` comes back as `.some(nil)`.
    public func resolvedOrNil() -> T? {
        cell.peek()
    }
}

extension LazyInjected: Sendable where T: Sendable {}
