/// Resolves a dependency on every read.
///
/// ```swift
/// final class SettingsViewModel {
///     @DynamicInjected(\.currentUser) var user   // whatever the factory returns right now
/// }
/// ```
///
/// Each read is a full resolution, so overrides registered after the object was
/// created are picked up on the next read, and the factory's scope decides
/// whether reads share an instance: with the default unique scope every read
/// builds a new one. Give the factory a caching scope if the dependency keeps
/// state. The container is the one chosen when the enclosing object is created
/// (the `shared` instance of the key path's container at that moment, task-local
/// for ``Container``).
///
/// Projected value: the wrapper, with ``factory``, ``resolve(reset:)``, and the
/// two factory operations code written for Factory's `DynamicInjected` calls on
/// it, ``register(factory:)`` and ``reset(_:)``. Use `$user.factory` for anything
/// else.
///
/// Thread safety and isolation: the wrapper holds only its factory, so it is
/// `Sendable` and every member may be used from any thread; each read resolves on
/// the calling thread. For non-isolated `Sendable` classes, declare it as a `let`
/// and use `wrappedValue`.
@propertyWrapper
public struct DynamicInjected<T>: Sendable {
    /// The factory this property resolves from, bound to the container chosen at
    /// initialization.
    public let factory: Factory<T>

    /// Resolves `keyPath` on the `Container.shared` of this moment, on every read.
    ///
    /// - Parameter keyPath: A factory of ``Container``: `\.currentUser`.
    @inlinable
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(Container.shared[keyPath: keyPath])
    }

    /// Resolves `keyPath` on `C.shared`, on every read.
    ///
    /// - Parameter keyPath: A factory of a shared container: `\OrderContainer.cart`.
    @inlinable
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(C.shared[keyPath: keyPath])
    }

    /// Resolves `factory` on every read; for containers that are not shared, or a
    /// specific container instance.
    ///
    /// - Parameter factory: The factory to resolve, already bound to its container.
    @inlinable
    public init(_ factory: Factory<T>) {
        self.factory = factory
    }

    /// A freshly resolved dependency. Inlinable, so that a client resolves with
    /// code specialized for its `T` rather than this module's generic code.
    @inlinable
    public var wrappedValue: T {
        factory.resolve()
    }

    /// The wrapper itself, for `$user.factory`, `$user.resolve(reset:)`,
    /// `$user.register { ... }` and `$user.reset()`.
    public var projectedValue: DynamicInjected<T> {
        self
    }

    /// Resolves the factory, optionally resetting it first. Reads of the property
    /// do the same with nothing reset.
    ///
    /// - Parameter options: What to reset on the factory before resolving, e.g.
    ///   `.scope` to drop its cached instance. The default resets nothing.
    /// - Returns: The resolved value.
    @discardableResult
    public func resolve(reset options: FactoryResetOptions = .none) -> T {
        if !options.isEmpty { factory.reset(options) }
        return factory.resolve()
    }

    /// Resolves the factory, like reading the property: `$user()`.
    public func callAsFunction() -> T {
        factory.resolve()
    }

    /// Registers an override on the factory's container; the next read uses it.
    ///
    /// The same as `$user.factory.register(factory:)`: it affects every user of
    /// that factory in that container, not only this property.
    ///
    /// - Parameter factory: Builds the new instance.
    /// - Returns: The factory, for chaining modifiers that persist with the registration.
    @discardableResult
    public func register(factory: @escaping @Sendable () -> T) -> Factory<T> {
        self.factory.register(factory: factory)
    }

    /// Resets the factory in its container; see ``FactoryResetOptions``.
    ///
    /// - Parameter options: What to reset; the default is `.all`.
    /// - Returns: The factory.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Factory<T> {
        factory.reset(options)
    }
}
