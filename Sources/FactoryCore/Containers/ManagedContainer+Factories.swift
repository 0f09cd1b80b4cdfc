extension ManagedContainer {
    /// Makes a factory bound to this container, as `Factory(self) { ... }` does:
    /// `var service: Factory<Service> { self { Service() } }`.
    @_transparent @_alwaysEmitIntoClient
    public func callAsFunction<T>(
        key: StaticString = #function, isolation: isolated (any Actor)? = #isolation, _ factory: @escaping () -> T
    ) -> Factory<T> {
        Factory(self, key: key, isolation: isolation, factory)
    }

    /// Makes a parameter factory bound to this container:
    /// `var greeter: ParameterFactory<String, Greeter> { self { Greeter(name: $0) } }`.
    @_transparent @_alwaysEmitIntoClient
    public func callAsFunction<P, T>(
        key: StaticString = #function, isolation: isolated (any Actor)? = #isolation, _ factory: @escaping (P) -> T
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, isolation: isolation, factory)
    }

    /// Makes a factory with no definition, whose implementation is registered later (by another module,
    /// or at start-up):
    ///
    /// ```swift
    /// var analytics: Factory<(any Analytics)?> { promised() }
    /// ```
    ///
    /// Resolving it before anything is registered stops a DEBUG build with a message naming the factory
    /// while ``ContainerManager/promiseTriggersError`` is on (the default), and returns `nil` otherwise.
    /// Under FactoryTesting's trait or XCTest helpers the running test fails instead and it returns `nil`.
    public func promised<T>(key: StaticString = #function) -> Factory<T?> {
        var factory = Factory<T?>(self, key: key) { @Sendable in nil }
        factory.registration.traits.insert([.promised, .general])
        return factory
    }

    /// A parameter factory with no definition; see ``promised(key:)``.
    public func promised<P, T>(key: StaticString = #function) -> ParameterFactory<P, T?> {
        var factory = ParameterFactory<P, T?>(self, key: key) { @Sendable _ in nil }
        factory.registration.traits.insert([.promised, .general])
        return factory
    }

    /// Calls `decorator` with every instance this container resolves; `nil` removes it.
    public func decorator(_ decorator: ((Any) -> Void)?) { manager.decorator = decorator }

    /// Resets this container; see ``ContainerManager/reset(options:)``.
    public func reset(options: FactoryResetOptions = .all) { manager.reset(options: options) }

    /// Runs `transform` on this container and returns it, for set-up in one expression:
    /// `let container = Container().with { $0.api.register { MockAPI() } }`.
    @discardableResult
    public func with(_ transform: (Self) -> Void) -> Self {
        transform(self)
        return self
    }

    #if SwiftConcurrency
    /// Runs the asynchronous `transform` on this container and returns it.
    @discardableResult
    public func with(_ transform: @Sendable (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }
    #endif

    /// Runs `transform` on this container and returns it: `Container.shared { $0.api.register { MockAPI() } }`.
    ///
    /// Where SwiftUI exists, FactoryWrappers adds a form returning an `EmptyView`, as Factory does, so the
    /// transform stands as a statement in a `#Preview` body; that form wins wherever both fit, and this
    /// one is picked where the container is expected (`let container: Container = Container() { ... }`).
    @discardableResult @_disfavoredOverload
    public func callAsFunction(_ transform: (Self) -> Void) -> Self {
        transform(self)
        return self
    }

    #if SwiftConcurrency
    /// Runs the asynchronous `transform` on this container:
    /// `await Container.shared { @MainActor in $0.model.register { MockModel() } }`.
    @discardableResult
    public func callAsFunction(_ transform: @Sendable (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }
    #endif
}

extension SharedContainer {
    /// Runs `transform` on the shared instance and returns it. Factory 3.2 deprecates it for the container
    /// transform, `Container.shared { ... }`. FactoryWrappers' `EmptyView` form wins where SwiftUI exists.
    @available(*, deprecated, message: "use the container transform: Container.shared { ... }")
    @discardableResult @_disfavoredOverload
    public static func preview(_ transform: (Self) -> Void) -> Self {
        transform(shared)
        return shared
    }

    /// Runs `transform` on this container and returns it, as the static `preview(_:)` does on the shared one.
    @available(*, deprecated, message: "use the container transform: Container.shared { ... }")
    @discardableResult @_disfavoredOverload
    public func preview(_ transform: (Self) -> Void) -> Self {
        transform(self)
        return self
    }
}
