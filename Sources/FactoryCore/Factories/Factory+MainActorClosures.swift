#if SwiftConcurrency
// Factory 2.5 spelled a main-actor factory with the isolation on the closure
// (`self { @MainActor in Model() }`); Factory 3 and this package take it from the
// enclosing declaration (`@MainActor var model: Factory<Model> { self { Model() } }`).
// These overloads accept the 2.5 spelling. A closure without an explicit global
// actor still picks the main overloads, which take the caller's isolation.
// Both spellings store the same closure and record the same `.main` isolation,
// so resolving either off the main actor stops with the same message.

extension Factory {
    /// Creates a factory whose closure is written `{ @MainActor in ... }`, as in Factory 2.5.
    ///
    /// The closure runs only on the main actor: resolving the factory elsewhere stops
    /// the program with a message naming it; use ``resolveOnMainActor()`` from other
    /// contexts.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, _ factory: @escaping @MainActor () -> T
    ) {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        self.init(container, key, closure, isolation)
    }

    /// Registers a closure written `{ @MainActor in ... }`; otherwise the same as
    /// ``register(isolation:factory:)``.
    @discardableResult
    public func register(factory: @escaping @MainActor () -> T) -> Self {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        return registering(RegistrationBox<Void, T>(.plain(closure), isolation: isolation, describesType: false))
    }

    /// Overrides the factory in `contexts` with a closure written `{ @MainActor in ... }`;
    /// otherwise the same as ``context(_:caller:isolation:factory:)``.
    @discardableResult
    public func context(
        _ contexts: FactoryContextType..., caller: StaticString = #function, factory: @escaping @MainActor () -> T
    ) -> Self {
        overriding(contexts, caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onArg(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onArg(
        _ argument: String, caller: StaticString = #function, factory: @escaping @MainActor () -> T
    ) -> Self {
        overriding([.arg(argument)], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onArgs(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onArgs(
        _ arguments: [String], caller: StaticString = #function, factory: @escaping @MainActor () -> T
    ) -> Self {
        overriding([.args(arguments)], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onPreview(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onPreview(caller: StaticString = #function, factory: @escaping @MainActor () -> T) -> Self {
        overriding([.preview], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onTest(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onTest(caller: StaticString = #function, factory: @escaping @MainActor () -> T) -> Self {
        overriding([.test], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onDebug(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onDebug(caller: StaticString = #function, factory: @escaping @MainActor () -> T) -> Self {
        overriding([.debug], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onSimulator(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onSimulator(caller: StaticString = #function, factory: @escaping @MainActor () -> T) -> Self {
        overriding([.simulator], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onDevice(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onDevice(caller: StaticString = #function, factory: @escaping @MainActor () -> T) -> Self {
        overriding([.device], caller: caller, with: Self.box(mainActor: factory))
    }

    /// The box a context override keeps a main-actor closure in.
    static func box(mainActor factory: @escaping @MainActor () -> T) -> RegistrationBoxBase {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        return RegistrationBox<Void, T>(.plain(closure), isolation: isolation, describesType: false)
    }
}

extension ParameterFactory {
    /// Creates a parameter factory whose closure is written `{ @MainActor in ... }`,
    /// as in Factory 2.5. The closure runs only on the main actor; see ``Factory``.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, _ factory: @escaping @MainActor (P) -> T
    ) {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        self.init(container, key, closure, isolation)
    }

    /// Registers a closure written `{ @MainActor in ... }`; otherwise the same as
    /// ``register(isolation:factory:)``.
    @discardableResult
    public func register(factory: @escaping @MainActor (P) -> T) -> Self {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        return registering(RegistrationBox(.parameter(closure), isolation: isolation, describesType: false))
    }

    /// Overrides the factory in `contexts` with a closure written `{ @MainActor in ... }`;
    /// otherwise the same as ``context(_:caller:isolation:factory:)``.
    @discardableResult
    public func context(
        _ contexts: FactoryContextType..., caller: StaticString = #function, factory: @escaping @MainActor (P) -> T
    ) -> Self {
        overriding(contexts, caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onArg(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onArg(
        _ argument: String, caller: StaticString = #function, factory: @escaping @MainActor (P) -> T
    ) -> Self {
        overriding([.arg(argument)], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onArgs(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onArgs(
        _ arguments: [String], caller: StaticString = #function, factory: @escaping @MainActor (P) -> T
    ) -> Self {
        overriding([.args(arguments)], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onPreview(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onPreview(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.preview], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onTest(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onTest(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.test], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onDebug(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onDebug(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.debug], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onSimulator(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onSimulator(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.simulator], caller: caller, with: Self.box(mainActor: factory))
    }

    /// ``onDevice(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func onDevice(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.device], caller: caller, with: Self.box(mainActor: factory))
    }

    /// The box a context override keeps a main-actor closure in.
    static func box(mainActor factory: @escaping @MainActor (P) -> T) -> RegistrationBoxBase {
        let (closure, isolation) = ClosureAdapter.adapt(mainActor: factory)
        return RegistrationBox(.parameter(closure), isolation: isolation, describesType: false)
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
    /// Registers a closure written `{ @MainActor in ... }` as the way to build `T`;
    /// otherwise the same as ``register(_:isolation:factory:)``.
    @discardableResult
    public func register<T>(_ type: T.Type = T.self, factory: @escaping @MainActor () -> T) -> Factory<T> {
        typedFactory(type).register(factory: factory)
    }
}

#endif
