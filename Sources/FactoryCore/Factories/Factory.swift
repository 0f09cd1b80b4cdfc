/// A factory: builds, or fetches from its scope, an instance of `T`.
///
/// Made inside a computed property of a container, each time the property is read:
///
/// ```swift
/// extension Container {
///     var service: Factory<any ServiceType> { self { Service() } }            // sugar
///     var formal: Factory<any ServiceType> { Factory(self) { Service() } }   // the same
/// }
/// let service = Container.shared.service()
/// ```
///
/// A factory is a small value; making one allocates nothing unless its closure
/// captures something. Its identity is the container type, the property name
/// (`#function`) and `T`.
public struct Factory<T>: FactoryModifying, Sendable {
    /// The definition and modifiers; see ``FactoryModifying``.
    public var registration: FactoryRegistration<Void, T>

    /// Creates a factory bound to `container`.
    ///
    /// - Parameters:
    ///   - container: The container that owns registrations and caches for it.
    ///   - key: The factory's name; leave the default (`#function`, the property name).
    ///   - factory: Builds a new instance. It may resolve other factories.
    @inlinable
    public init(_ container: any ManagedContainer, key: StaticString = #function, _ factory: @escaping @Sendable () -> T) {
        registration = FactoryRegistration(container: container, key: key, factory: .plain(factory))
    }

    /// Resolves an instance: new, or from the factory's scope.
    @inlinable
    public func callAsFunction() -> T {
        registration.resolve(())
    }

    /// Resolves an instance: new, or from the factory's scope.
    @inlinable
    public func resolve() -> T {
        registration.resolve(())
    }

    /// Replaces the definition's closure for this container until reset, and drops
    /// the factory's cached instance so the next resolution uses `factory`.
    ///
    /// Modifiers chained after `register` persist with it:
    /// `container.service.register { Mock() }.singleton`.
    @discardableResult
    public func register(factory: @escaping @Sendable () -> T) -> Self {
        var copy = self
        copy.registration.register(.plain(factory))
        return copy
    }

    /// Overrides the factory in the given contexts; see ``FactoryContextType`` for precedence.
    /// A context override wins over `register`.
    @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping @Sendable () -> T) -> Self {
        var copy = self
        copy.registration.addContext(contexts, .plain(factory))
        return copy
    }

    /// Overrides the factory when `argument` is a launch or runtime argument.
    /// In release builds launch arguments count only when
    /// ``FactoryContext/honorsLaunchOverridesInRelease`` is set.
    @discardableResult
    public func onArg(_ argument: String, factory: @escaping @Sendable () -> T) -> Self {
        context(.arg(argument), factory: factory)
    }

    /// Overrides the factory when any of `arguments` is present.
    @discardableResult
    public func onArgs(_ arguments: [String], factory: @escaping @Sendable () -> T) -> Self {
        context(.args(arguments), factory: factory)
    }

    /// Overrides the factory in SwiftUI previews.
    @discardableResult
    public func onPreview(factory: @escaping @Sendable () -> T) -> Self {
        context(.preview, factory: factory)
    }

    /// Overrides the factory under XCTest and Swift Testing.
    @discardableResult
    public func onTest(factory: @escaping @Sendable () -> T) -> Self {
        context(.test, factory: factory)
    }

    /// Overrides the factory in DEBUG builds.
    @discardableResult
    public func onDebug(factory: @escaping @Sendable () -> T) -> Self {
        context(.debug, factory: factory)
    }

    /// Overrides the factory in the simulator.
    @discardableResult
    public func onSimulator(factory: @escaping @Sendable () -> T) -> Self {
        context(.simulator, factory: factory)
    }

    /// Overrides the factory on a device (not the simulator).
    @discardableResult
    public func onDevice(factory: @escaping @Sendable () -> T) -> Self {
        context(.device, factory: factory)
    }
}
