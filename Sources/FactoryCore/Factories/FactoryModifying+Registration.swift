// `register`, the context overrides and Factory 3.2's sugar, once for every kind, over its
// ``FactoryModifying/Closure``. A sync closure keeps its place's isolation (`#isolation`), checked
// before it runs; `{ @MainActor in ... }` (Factory 2.5) has its own forms below.

extension FactoryModifying {
    /// Replaces the definition's closure for this container (not other instances) until reset, and drops the factory's
    /// cached instances so the next resolution uses `factory`. Modifiers chained after it persist with it:
    /// `container.service.register { Mock() }.singleton`. A resolution already under way may finish with the old
    /// closure, but none that starts after `register` returns uses it, and what the old closure builds is never cached.
    /// Inside `autoRegister()` it keeps what is cached, as in Factory.
    ///
    /// - Parameters:
    ///   - isolation: Leave the default (`#isolation`): the actor a synchronous closure is isolated to, checked when it runs.
    ///   - factory: Builds the instance from now on.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func register(isolation: isolated (any Actor)? = #isolation, factory: Closure) -> Self {
        registering(Self.box(factory, isolation))
    }

    /// Overrides the factory in the given contexts (``FactoryContextType`` gives the precedence). A
    /// context override wins over `register` and keeps what is cached. In the factory's own definition it
    /// is part of the definition; applied anywhere else it persists in the container until reset.
    ///
    /// - Parameters:
    ///   - contexts: When the override applies.
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - isolation: Leave the default (`#isolation`): the actor a synchronous closure is isolated to, checked when it runs.
    ///   - factory: Builds the instance in those contexts.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func context(
        _ contexts: FactoryContextType..., caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        factory: Closure
    ) -> Self {
        overriding(contexts, Self.box(factory, isolation), caller)
    }

    /// Overrides the factory when `argument` is a launch or runtime argument (``FactoryContextType/arg(_:)``).
    /// In release builds launch arguments count only when ``FactoryContext/honorsLaunchOverridesInRelease`` is set.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onArg(
        _ argument: String, caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        factory: Closure
    ) -> Self {
        overriding([.arg(argument)], Self.box(factory, isolation), caller)
    }

    /// Overrides the factory when any of `arguments` is present (``FactoryContextType/args(_:)``).
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onArgs(
        _ arguments: [String], caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        factory: Closure
    ) -> Self {
        overriding([.args(arguments)], Self.box(factory, isolation), caller)
    }

    /// Overrides the factory in SwiftUI previews (``FactoryContextType/preview``).
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onPreview(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: Closure
    ) -> Self {
        overriding([.preview], Self.box(factory, isolation), caller)
    }

    /// Overrides the factory under XCTest and Swift Testing (``FactoryContextType/test``).
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onTest(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: Closure
    ) -> Self {
        overriding([.test], Self.box(factory, isolation), caller)
    }

    /// Overrides the factory in DEBUG builds (``FactoryContextType/debug``).
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onDebug(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: Closure
    ) -> Self {
        overriding([.debug], Self.box(factory, isolation), caller)
    }

    /// Overrides the factory in the simulator (``FactoryContextType/simulator``).
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onSimulator(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: Closure
    ) -> Self {
        overriding([.simulator], Self.box(factory, isolation), caller)
    }

    /// Overrides the factory on a device, not the simulator (``FactoryContextType/device``).
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onDevice(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: Closure
    ) -> Self {
        overriding([.device], Self.box(factory, isolation), caller)
    }

    /// ``register(isolation:factory:)`` under Factory's name for set-up in previews:
    /// `Container.shared.service.preview { MockService() }`. Where SwiftUI exists, FactoryWrappers adds a form
    /// returning an `EmptyView` (Factory's type there), to stand as a statement in a `#Preview` body; that form wins
    /// wherever both fit.
    @_alwaysEmitIntoClient @discardableResult @_disfavoredOverload
    public consuming func preview(isolation: isolated (any Actor)? = #isolation, factory: Closure) -> Self {
        registering(Self.box(factory, isolation))
    }

    /// ``register(isolation:factory:)`` as Factory 3.2's sugar, reading like the definition:
    /// `Container.shared.service { MockService() }`. Calling the factory without a closure resolves it, as
    /// always. FactoryWrappers' `EmptyView` form wins where SwiftUI exists.
    @_alwaysEmitIntoClient @discardableResult @_disfavoredOverload
    public consuming func callAsFunction(isolation: isolated (any Actor)? = #isolation, factory: Closure) -> Self {
        registering(Self.box(factory, isolation))
    }

    /// The box a registration or context override keeps `factory` in, made in the specialized caller: made in
    /// the library, unspecialized, it would cost a generic metadata lookup on every `register`.
    @_alwaysEmitIntoClient @usableFromInline
    static func box(_ factory: Closure, _ isolation: (any Actor)?) -> RegistrationBoxBase {
        RegistrationBox<Closure>(factory, isolation: ClosureAdapter.isolation(of: isolation))
    }

    @_alwaysEmitIntoClient @usableFromInline
    consuming func registering(_ box: RegistrationBoxBase) -> Self {
        registration.register(box)
        return self
    }

    @_alwaysEmitIntoClient @usableFromInline
    consuming func overriding(_ types: [FactoryContextType], _ box: RegistrationBoxBase, _ caller: StaticString) -> Self {
        registration.addContexts(types, box, caller: caller)
        return self
    }
}

#if SwiftConcurrency
// Converting `{ @MainActor in ... }` to a sync kind's `(P) -> T` drops its global actor, which
// Swift refuses off the main actor, so these forms take it as is. Both these and the forms above
// record `.main`, so resolving off the main actor stops with the same message. Async kinds need
// none: an async main-actor closure converts to theirs and hops itself.
extension FactoryModifying where Closure == (P) -> T {
    /// ``register(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func register(factory: @escaping @MainActor (P) -> T) -> Self {
        registering(Self.box(mainActor: factory))
    }

    /// ``context(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func context(
        _ contexts: FactoryContextType..., caller: StaticString = #function, factory: @escaping @MainActor (P) -> T
    ) -> Self {
        overriding(contexts, Self.box(mainActor: factory), caller)
    }

    /// ``onArg(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onArg(
        _ argument: String, caller: StaticString = #function, factory: @escaping @MainActor (P) -> T
    ) -> Self {
        overriding([.arg(argument)], Self.box(mainActor: factory), caller)
    }

    /// ``onArgs(_:caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onArgs(
        _ arguments: [String], caller: StaticString = #function, factory: @escaping @MainActor (P) -> T
    ) -> Self {
        overriding([.args(arguments)], Self.box(mainActor: factory), caller)
    }

    /// ``onPreview(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onPreview(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.preview], Self.box(mainActor: factory), caller)
    }

    /// ``onTest(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onTest(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.test], Self.box(mainActor: factory), caller)
    }

    /// ``onDebug(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onDebug(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.debug], Self.box(mainActor: factory), caller)
    }

    /// ``onSimulator(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onSimulator(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.simulator], Self.box(mainActor: factory), caller)
    }

    /// ``onDevice(caller:isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func onDevice(caller: StaticString = #function, factory: @escaping @MainActor (P) -> T) -> Self {
        overriding([.device], Self.box(mainActor: factory), caller)
    }

    /// ``preview(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult @_disfavoredOverload
    public consuming func preview(factory: @escaping @MainActor (P) -> T) -> Self {
        registering(Self.box(mainActor: factory))
    }

    /// ``callAsFunction(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @_alwaysEmitIntoClient @discardableResult @_disfavoredOverload
    public consuming func callAsFunction(factory: @escaping @MainActor (P) -> T) -> Self {
        registering(Self.box(mainActor: factory))
    }

    @_alwaysEmitIntoClient @usableFromInline
    static func box(mainActor factory: @escaping @MainActor (P) -> T) -> RegistrationBoxBase {
        RegistrationBox<Closure>(ClosureAdapter.adapt(mainActor: factory).0, isolation: .main)
    }
}
#endif
