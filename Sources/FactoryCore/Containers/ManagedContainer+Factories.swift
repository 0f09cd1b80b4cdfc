extension ManagedContainer {
    /// Makes a factory bound to this container: `var service: Factory<Service> { self { Service() } }`.
    ///
    /// The same as `Factory(self) { ... }`.
    @inlinable @inline(__always)
    public func callAsFunction<T>(key: StaticString = #function, _ factory: @escaping @Sendable () -> T) -> Factory<T> {
        Factory(self, key: key, factory)
    }

    /// Makes a parameter factory bound to this container:
    /// `var greeter: ParameterFactory<String, Greeter> { self { Greeter(name: $0) } }`.
    @inlinable @inline(__always)
    public func callAsFunction<P, T>(
        key: StaticString = #function, _ factory: @escaping @Sendable (P) -> T
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, factory)
    }

    /// Makes a factory with no definition, whose implementation is registered later
    /// (by another module, or at start-up):
    ///
    /// ```swift
    /// var analytics: Factory<(any Analytics)?> { promised() }
    /// ```
    ///
    /// Resolving it before anything is registered stops a DEBUG build with a
    /// message naming the factory while ``ContainerManager/promiseTriggersError``
    /// is on (the default), and returns `nil` otherwise.
    public func promised<T>(key: StaticString = #function) -> Factory<T?> {
        var factory = Factory<T?>(self, key: key) { nil }
        factory.registration.isPromised = true
        return factory
    }

    /// A parameter factory with no definition; see ``promised(key:)``.
    public func promised<P, T>(key: StaticString = #function) -> ParameterFactory<P, T?> {
        var factory = ParameterFactory<P, T?>(self, key: key) { _ in nil }
        factory.registration.isPromised = true
        return factory
    }

    /// Calls `decorator` with every instance this container resolves.
    public func decorator(_ decorator: @escaping @Sendable (Any) -> Void) {
        manager.decorator = decorator
    }

    /// Resets this container; see ``ContainerManager/reset(options:)``.
    public func reset(options: FactoryResetOptions = .all) {
        manager.reset(options: options)
    }
}
