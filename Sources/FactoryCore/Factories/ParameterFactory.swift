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
/// Pass several values as a tuple or a struct. A factory may resolve itself
/// with a different parameter (recursion); with an equal one it is a cycle.
/// Isolation works as for ``Factory``.
public struct ParameterFactory<P, T>: FactoryModifying, Sendable {
    /// The definition and modifiers; see ``FactoryModifying``.
    public var registration: FactoryRegistration
    /// The definition's closure.
    @usableFromInline package var factory: @Sendable (P) -> T

    /// Creates a parameter factory bound to `container`.
    ///
    /// - Parameters:
    ///   - container: The container that owns registrations and caches for it.
    ///   - key: The factory's name; leave the default (`#function`).
    ///   - isolation: Leave the default (`#isolation`): the actor the closure is isolated to, checked when it runs.
    ///   - factory: Builds a new instance from the parameter.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        _ factory: @escaping (P) -> T
    ) {
        let (closure, closureIsolation) = ClosureAdapter.adapt(factory, isolation)
        self.init(container, key, closure, closureIsolation)
    }

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    init<C: ManagedContainer>(
        _ container: C, _ name: StaticString, _ factory: @escaping @Sendable (P) -> T, _ isolation: ClosureIsolation
    ) {
        registration = FactoryRegistration(
            container: container, name: name, valueType: T.self, parameterType: P.self, isolation: isolation)
        self.factory = factory
    }

    /// Resolves an instance for `parameters`.
    @_alwaysEmitIntoClient @inline(__always)
    public __consuming func callAsFunction(_ parameters: P) -> T {
        resolved(parameters)
    }

    /// Resolves an instance for `parameters`.
    @_alwaysEmitIntoClient @inline(__always)
    public __consuming func resolve(_ parameters: P) -> T {
        resolved(parameters)
    }

    /// The resolution, compiled once per parameter and value type; see ``Factory``.
    /// A direct build records the parameter's address for cycle detection.
    // `__consuming`, and not turned back into a borrow, for the reasons
    // `Factory.resolved()` gives.
    @_alwaysEmitIntoClient @inline(never) @usableFromInline
    @_semantics("optimize.sil.specialize.owned2guarantee.never")
    __consuming func resolved(_ parameter: P) -> T {
        withUnsafePointer(to: parameter) { address in
            let step = Self.fastStep(self, parameter: UnsafeRawPointer(address))
            if let build = step.build { return Self.build(self, parameter, entered: build) }
            if step.hit.isStrong { return step.hit.readStrong(T.self) }
            // A weak cell's instance may be gone: read with the library's own code.
            if step.hit.cell != nil { return Self.resolve(self, parameter, weakHit: step.hit) }
            return Self.resolveGenerally(self, parameter)
        }
    }

    @_alwaysEmitIntoClient
    static func fastStep(_ factory: borrowing Self, parameter: UnsafeRawPointer) -> FastStep {
        factory.registration.fastStep(parameter: parameter)
    }

    /// Runs the closure of the build `fastStep` entered.
    @_alwaysEmitIntoClient
    static func build(_ factory: borrowing Self, _ parameter: P, entered context: Unmanaged<ResolutionContext>) -> T {
        let value = factory.factory(parameter)
        factory.registration.endDirectBuild(context)
        return value
    }

    @_alwaysEmitIntoClient
    static func resolve(_ factory: borrowing Self, _ parameter: P, weakHit: CellHit) -> T {
        GeneralPath.resolve(factory.registration, factory.factory, parameter, weakHit: weakHit)
    }

    @_alwaysEmitIntoClient
    static func resolveGenerally(_ factory: borrowing Self, _ parameter: P) -> T {
        GeneralPath.resolve(factory.registration, factory.factory, parameter)
    }

    /// Replaces the definition's closure for this container until reset, and drops
    /// the factory's cached instances so the next resolution uses `factory`.
    ///
    /// Other container instances are not affected. Modifiers chained after
    /// `register` persist with it: `container.service.register { Mock($0) }.singleton`.
    /// A resolution already under way may still finish with the old closure, but
    /// none that starts after `register` returns uses it, and an instance the old
    /// closure builds is never cached.
    @_alwaysEmitIntoClient @discardableResult
    public func register(isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T) -> Self {
        let (closure, closureIsolation) = ClosureAdapter.adapt(factory, isolation)
        return registering(RegistrationBox(.parameter(closure), isolation: closureIsolation, describesType: false))
    }

    /// Overrides the factory in the given contexts; see ``FactoryContextType`` for
    /// precedence. A context override wins over `register`.
    ///
    /// In the factory's own definition the override is part of the definition;
    /// applied anywhere else it persists in the container until reset.
    ///
    /// - Parameters:
    ///   - contexts: When the override applies.
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - isolation: Leave the default (`#isolation`): the actor the closure is isolated to, checked when it runs.
    ///   - factory: Builds the instance in those contexts.
    @_alwaysEmitIntoClient @discardableResult
    public func context(
        _ contexts: FactoryContextType..., caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        factory: @escaping (P) -> T
    ) -> Self {
        overriding(contexts, caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory when `argument` is a launch or runtime argument.
    /// In release builds launch arguments count only when
    /// ``FactoryContext/honorsLaunchOverridesInRelease`` is set.
    @_alwaysEmitIntoClient @discardableResult
    public func onArg(
        _ argument: String, caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        factory: @escaping (P) -> T
    ) -> Self {
        overriding([.arg(argument)], caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory when any of `arguments` is present.
    @_alwaysEmitIntoClient @discardableResult
    public func onArgs(
        _ arguments: [String], caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation,
        factory: @escaping (P) -> T
    ) -> Self {
        overriding([.args(arguments)], caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory in SwiftUI previews.
    @_alwaysEmitIntoClient @discardableResult
    public func onPreview(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T
    ) -> Self {
        overriding([.preview], caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory under XCTest and Swift Testing.
    @_alwaysEmitIntoClient @discardableResult
    public func onTest(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T
    ) -> Self {
        overriding([.test], caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory in DEBUG builds.
    @_alwaysEmitIntoClient @discardableResult
    public func onDebug(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T
    ) -> Self {
        overriding([.debug], caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory in the simulator.
    @_alwaysEmitIntoClient @discardableResult
    public func onSimulator(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T
    ) -> Self {
        overriding([.simulator], caller: caller, with: Self.box(factory, isolation))
    }

    /// Overrides the factory on a device (not the simulator).
    @_alwaysEmitIntoClient @discardableResult
    public func onDevice(
        caller: StaticString = #function, isolation: isolated (any Actor)? = #isolation, factory: @escaping (P) -> T
    ) -> Self {
        overriding([.device], caller: caller, with: Self.box(factory, isolation))
    }

    /// The box a context override keeps `factory` in.
    @_alwaysEmitIntoClient @usableFromInline
    static func box(_ factory: @escaping (P) -> T, _ isolation: (any Actor)?) -> RegistrationBoxBase {
        let (closure, closureIsolation) = ClosureAdapter.adapt(factory, isolation)
        return RegistrationBox(.parameter(closure), isolation: closureIsolation, describesType: false)
    }
}
