// Factory 3's set-up sugar for previews and tests: `preview { }` and, from Factory
// 3.2, registration by calling the factory with a closure. Each is `register` under
// another name. Where SwiftUI exists, FactoryWrappers adds forms that return an
// `EmptyView` (Factory's return type there), so that they stand as statements in a
// `#Preview` body; those win wherever both fit, and these are picked where the
// factory is expected (`let factory: Factory<Service> = ...preview { ... }`).

extension Factory {
    /// Registers `factory` and returns the factory: the same as ``register(isolation:factory:)``.
    ///
    /// ```swift
    /// Container.shared.service.preview { MockService() }
    /// ```
    @discardableResult @_disfavoredOverload
    public func preview(isolation: isolated (any Actor)? = #isolation, factory: @escaping () -> T) -> Self {
        register(isolation: isolation, factory: factory)
    }

    /// Registers `factory` and returns the factory: the same as ``register(isolation:factory:)``.
    ///
    /// Factory 3.2's registration sugar, which reads like the definition:
    ///
    /// ```swift
    /// Container.shared.service { MockService() }
    /// ```
    ///
    /// Calling the factory with no closure resolves it, as always.
    @discardableResult @_disfavoredOverload
    public func callAsFunction(isolation: isolated (any Actor)? = #isolation, factory: @escaping () -> T) -> Self {
        register(isolation: isolation, factory: factory)
    }
}

extension ParameterFactory {
    /// Registers `factory` and returns the factory: the same as ``register(isolation:factory:)``.
    @discardableResult @_disfavoredOverload
    public func preview(isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T) -> Self {
        register(isolation: isolation, factory: factory)
    }

    /// Registers `factory` and returns the factory: the same as ``register(isolation:factory:)``.
    ///
    /// ```swift
    /// Container.shared.greeter { MockGreeter(name: $0) }
    /// ```
    ///
    /// Calling the factory with a parameter resolves it, as always.
    @discardableResult @_disfavoredOverload
    public func callAsFunction(isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T) -> Self {
        register(isolation: isolation, factory: factory)
    }
}

#if SwiftConcurrency
extension Factory {
    /// ``preview(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult @_disfavoredOverload
    public func preview(factory: @escaping @MainActor () -> T) -> Self {
        register(factory: factory)
    }

    /// ``callAsFunction(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult @_disfavoredOverload
    public func callAsFunction(factory: @escaping @MainActor () -> T) -> Self {
        register(factory: factory)
    }
}

extension ParameterFactory {
    /// ``preview(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult @_disfavoredOverload
    public func preview(factory: @escaping @MainActor (P) -> T) -> Self {
        register(factory: factory)
    }

    /// ``callAsFunction(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult @_disfavoredOverload
    public func callAsFunction(factory: @escaping @MainActor (P) -> T) -> Self {
        register(factory: factory)
    }
}
#endif
