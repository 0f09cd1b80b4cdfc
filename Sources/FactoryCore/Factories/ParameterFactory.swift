/// A factory whose closure takes a parameter: `container.service(42)`.
///
/// ```swift
/// extension Container {
///     var greeter: ParameterFactory<String, Greeter> { self { Greeter(name: $0) } }
/// }
/// ```
///
/// With a caching scope, the first parameter builds the instance and later
/// parameters are ignored until the cache is reset; `FactoryScopes`'
/// `scopeOnParameters` keeps one instance per distinct parameter instead.
/// Pass several values as a tuple or a struct.
public struct ParameterFactory<P, T>: FactoryModifying, Sendable {
    /// The definition and modifiers; see ``FactoryModifying``.
    public var registration: FactoryRegistration<P, T>

    /// Creates a parameter factory bound to `container`.
    ///
    /// - Parameters:
    ///   - container: The container that owns registrations and caches for it.
    ///   - key: The factory's name; leave the default (`#function`).
    ///   - factory: Builds a new instance from the parameter.
    @inlinable
    public init(_ container: any ManagedContainer, key: StaticString = #function, _ factory: @escaping @Sendable (P) -> T) {
        registration = FactoryRegistration(container: container, key: key, factory: .parameter(factory))
    }

    /// Resolves an instance for `parameters`.
    @inlinable
    public func callAsFunction(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Resolves an instance for `parameters`.
    @inlinable
    public func resolve(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Replaces the definition's closure for this container until reset, and drops
    /// the factory's cached instances.
    @discardableResult
    public func register(factory: @escaping @Sendable (P) -> T) -> Self {
        var copy = self
        copy.registration.register(.parameter(factory))
        return copy
    }

    /// Overrides the factory in the given contexts. A context override wins over `register`.
    @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping @Sendable (P) -> T) -> Self {
        var copy = self
        copy.registration.addContext(contexts, .parameter(factory))
        return copy
    }

    /// Overrides the factory when `argument` is a launch or runtime argument.
    @discardableResult
    public func onArg(_ argument: String, factory: @escaping @Sendable (P) -> T) -> Self {
        context(.arg(argument), factory: factory)
    }

    /// Overrides the factory when any of `arguments` is present.
    @discardableResult
    public func onArgs(_ arguments: [String], factory: @escaping @Sendable (P) -> T) -> Self {
        context(.args(arguments), factory: factory)
    }

    /// Overrides the factory in SwiftUI previews.
    @discardableResult
    public func onPreview(factory: @escaping @Sendable (P) -> T) -> Self {
        context(.preview, factory: factory)
    }

    /// Overrides the factory under XCTest and Swift Testing.
    @discardableResult
    public func onTest(factory: @escaping @Sendable (P) -> T) -> Self {
        context(.test, factory: factory)
    }

    /// Overrides the factory in DEBUG builds.
    @discardableResult
    public func onDebug(factory: @escaping @Sendable (P) -> T) -> Self {
        context(.debug, factory: factory)
    }

    /// Overrides the factory in the simulator.
    @discardableResult
    public func onSimulator(factory: @escaping @Sendable (P) -> T) -> Self {
        context(.simulator, factory: factory)
    }

    /// Overrides the factory on a device (not the simulator).
    @discardableResult
    public func onDevice(factory: @escaping @Sendable (P) -> T) -> Self {
        context(.device, factory: factory)
    }
}
