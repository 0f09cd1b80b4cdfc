/// Opt-in type-based registration, in the style of Resolver, for containers that conform to it:
///
/// ```swift
/// extension Container: Resolving {}
/// Container.shared.register { Service() as any ServiceType }
/// let service: (any ServiceType)? = Container.shared.resolve()
/// ```
///
/// Registrations are keyed by the exact type: registering `Service` does not make `any ServiceType`
/// resolvable. They are ordinary registrations of this container: `reset`, `push` and `pop` apply to
/// them, and modifiers chained after `register` (`.scope(.singleton)`) persist with them.
public protocol Resolving: ManagedContainer {}

extension Resolving {
    /// Registers `factory` as the way to build `T` in this container.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation, factory: @escaping () -> T
    ) -> Factory<T> {
        typedFactory(type).register(isolation: isolation) { _ in factory() }
    }

    /// Resolves the `T` registered in this container, or `nil` when none is. A racing reset either
    /// happens before it (`nil`) or after it read the registration, which then builds the instance.
    public func resolve<T>(_ type: T.Type = T.self) -> T? {
        var factory = typedFactory(type)
        guard let registered = registration(of: factory) else { return nil }
        // The registration read here is the definition, so a reset after this point still has a
        // closure to run; its isolation, checked when it runs, is the registration's.
        let closure = registered.closure
        factory.factory = ClosureAdapter.adapt({ closure(()) }, nil).0
        factory.registration.isolation = registered.isolation
        return factory.resolve()
    }

    /// The factory registered for `T`, or `nil` when none is; its modifiers work as usual and persist.
    public func factory<T>(_ type: T.Type = T.self) -> Factory<T>? {
        let factory = typedFactory(type)
        return registration(of: factory) == nil ? nil : factory
    }

    private func registration<T>(of factory: Factory<T>) -> RegistrationBox<Factory<T>.Closure>? {
        manager.ensureAutoRegistered(self)
        let key = factory.registration.key
        let box = manager.findSlot(key)?.takeUnretainedValue().loadPersisted().registration
        // Safe: the key names `T` and a `Void` parameter, so its box holds `Factory<T>.Closure`.
        return box.map { unsafeDowncast($0, to: RegistrationBox<Factory<T>.Closure>.self) }
    }

    func typedFactory<T>(_ type: T.Type) -> Factory<T> {
        var factory = Factory(self, key: "resolving") { @Sendable () -> T in
            fatalError("FactoryCore: \(String(describing: Self.self)).resolving<\(T.self)> has no registration")
        }
        // Modifiers on a type-based factory always persist: it has no definition to belong to.
        factory.registration.traits.insert(.persists)
        return factory
    }
}
