/// Resolves a dependency when the enclosing object is created.
///
/// Name a factory by key path, on ``Container`` or on any ``SharedContainer``:
///
/// ```swift
/// final class ContentViewModel {
///     @Injected(\.myService) private var myService
///     @Injected(\OrderContainer.orders) private var orders
/// }
/// ```
///
/// The factory is resolved once, in the wrapper's initializer, from the container
/// that is `shared` at that moment — for ``Container`` the task-local
/// ``Container/shared``, so an object created inside
/// `Container.$shared.withValue(testContainer) { ... }` takes its dependency from
/// `testContainer`. A `register` made after the object exists does not change the
/// value it already holds; call ``resolve(reset:)`` through the projected value to
/// fetch a new one:
///
/// ```swift
/// $myService.resolve()               // resolve again (the scope may return the same instance)
/// $myService.resolve(reset: .scope)  // drop the cached instance first, then resolve
/// ```
///
/// Thread safety and isolation: `Injected` is a plain value, `Sendable` when `T`
/// is. Reads take no lock. It can be used in classes, structs, actors and
/// `@MainActor` types, including `Sendable` structs and global-actor-isolated
/// `Sendable` classes. A non-isolated `Sendable` class cannot hold it, because
/// Swift keeps a wrapper in a `var` and such a class may not have mutable stored
/// properties; resolve into a `let` there instead:
///
/// ```swift
/// final class Handler: Sendable {
///     private let myService = Container.shared.myService()
/// }
/// ```
@propertyWrapper
public struct Injected<T> {
    // The initializers and accessors are inlinable, so that a client resolves with
    // code specialized for its `T` rather than this module's generic code.
    @usableFromInline var dependency: T

    /// The factory this property resolves from, bound to the container chosen at
    /// initialization. Use it to register an override or reset the factory:
    /// `$myService.factory.register { MockService() }`.
    public let factory: Factory<T>

    /// Resolves `keyPath` on `Container.shared` now.
    ///
    /// - Parameter keyPath: A factory of ``Container``: `\.myService`.
    @inlinable
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(Container.shared[keyPath: keyPath])
    }

    /// Resolves `keyPath` on `C.shared` now.
    ///
    /// - Parameter keyPath: A factory of a shared container: `\OrderContainer.orders`.
    @inlinable
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(C.shared[keyPath: keyPath])
    }

    /// Resolves `factory` now; for containers that are not shared, or a specific
    /// container instance: `@Injected(requestContainer.session) var session`.
    ///
    /// - Parameter factory: The factory to resolve, already bound to its container.
    @inlinable
    public init(_ factory: Factory<T>) {
        self.factory = factory
        dependency = factory.resolve()
    }

    /// The resolved dependency. Assigning replaces it for this property only; the
    /// factory and its container are unchanged.
    @inlinable
    public var wrappedValue: T {
        get { dependency }
        set { dependency = newValue }
    }

    /// The wrapper itself, for `$myService.resolve()` and `$myService.factory`.
    public var projectedValue: Injected<T> {
        get { self }
        set { self = newValue }
    }

    /// Resolves the factory again and keeps the result.
    ///
    /// - Parameter options: What to reset on the factory before resolving, e.g.
    ///   `.scope` to drop its cached instance so a cached or singleton factory builds
    ///   a new one. Resetting `.registration` removes overrides for every user of
    ///   the factory, not only this property. The default resets nothing.
    /// - Returns: The newly resolved value.
    @discardableResult
    public mutating func resolve(reset options: FactoryResetOptions = .none) -> T {
        if !options.isEmpty { factory.reset(options) }
        dependency = factory.resolve()
        return dependency
    }
}

extension Injected: Sendable where T: Sendable {}
