#if SwiftConcurrency
// Factory 2.5's `self { @MainActor in Model() }` (Factory 3 takes the isolation from the
// enclosing declaration). Both spellings record `.main`, so resolving either off the main actor
// stops with the same message; the modifiers' forms are in FactoryModifying+Registration.swift.

extension Factory {
    /// Creates a factory whose closure is written `{ @MainActor in ... }`, as in Factory 2.5. The closure
    /// runs only on the main actor: resolving the factory elsewhere stops the program with a message
    /// naming it; use ``resolveOnMainActor()`` from other contexts.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, _ factory: @escaping @MainActor () -> T
    ) {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        self.init(container, key, closure, isolation)
    }
}

extension ParameterFactory {
    /// Creates a parameter factory whose closure is written `{ @MainActor in ... }`, as in Factory 2.5;
    /// it runs only on the main actor (see ``Factory``).
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, _ factory: @escaping @MainActor (P) -> T
    ) {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        self.init(container, key, closure, isolation)
    }
}

extension ManagedContainer {
    /// Makes a factory whose closure is written `{ @MainActor in ... }`, as in Factory 2.5:
    /// `var model: Factory<Model> { self { @MainActor in Model() } }`.
    @_transparent @_alwaysEmitIntoClient
    public func callAsFunction<T>(key: StaticString = #function, _ factory: @escaping @MainActor () -> T) -> Factory<T> {
        Factory(self, key: key, factory)
    }

    /// Makes a parameter factory whose closure is written `{ @MainActor in ... }`.
    @_transparent @_alwaysEmitIntoClient
    public func callAsFunction<P, T>(
        key: StaticString = #function, _ factory: @escaping @MainActor (P) -> T
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, factory)
    }
}

extension Resolving {
    /// ``register(_:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func register<T>(_ type: T.Type = T.self, factory: @escaping @MainActor () -> T) -> Factory<T> {
        typedFactory(type).register { @MainActor _ in factory() }
    }
}

#endif
