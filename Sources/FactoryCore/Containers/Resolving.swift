/// Opt-in type-based registration, in the style of Resolver, for containers that
/// conform to it:
///
/// ```swift
/// extension Container: Resolving {}
/// Container.shared.register { Service() as any ServiceType }
/// let service: (any ServiceType)? = Container.shared.resolve()
/// ```
///
/// Registrations are keyed by the exact type: registering `Service` does not make
/// `any ServiceType` resolvable. They are ordinary registrations of this container:
/// `reset`, `push` and `pop` apply to them.
public protocol Resolving: ManagedContainer {}

extension Resolving {
    /// Registers `factory` as the way to build `T` in this container.
    @discardableResult
    public func register<T>(_ type: T.Type = T.self, factory: @escaping @Sendable () -> T) -> Factory<T> {
        typedFactory(type).register(factory: factory)
    }

    /// Resolves the `T` registered in this container, or `nil` when none is.
    ///
    /// The registration is read once, under the container's lock, and is what builds
    /// the instance if another thread resets it while this resolution runs.
    public func resolve<T>(_ type: T.Type = T.self) -> T? {
        manager.ensureAutoRegistered(self)
        let key = typedFactory(type).registration.key
        guard let box = manager.lock.withLock({ manager.state.entries[key]?.registration }) else { return nil }
        let registered = unsafeDowncast(box, to: RegistrationBox<Void, T>.self).factory
        return Factory(self, key: "resolving") { registered(()) }.resolve()
    }

    /// The factory registered for `T`, or `nil` when none is. Its modifiers work as on any factory.
    public func factory<T>(_ type: T.Type = T.self) -> Factory<T>? {
        manager.ensureAutoRegistered(self)
        let factory = typedFactory(type)
        let key = factory.registration.key
        let registered = manager.lock.withLock { manager.state.entries[key]?.registration != nil }
        return registered ? factory : nil
    }

    private func typedFactory<T>(_ type: T.Type) -> Factory<T> {
        Factory(self, key: "resolving") {
            fatalError("FactoryCore: \(String(describing: Self.self)).resolving<\(T.self)> has no registration")
        }
    }
}
