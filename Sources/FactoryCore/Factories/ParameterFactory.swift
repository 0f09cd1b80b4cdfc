/// A factory whose closure takes a parameter: `container.service(42)`.
///
/// ```swift
/// extension Container {
///     var greeter: ParameterFactory<String, Greeter> { self { Greeter(name: $0) } }
/// }
/// ```
///
/// With a caching scope, the first parameter builds the instance and later parameters are ignored until
/// the cache is reset; `FactoryScopes`' `scopeOnParameters` keeps one instance per distinct parameter
/// instead. Pass several values as a tuple or a struct. A factory may resolve itself with a different
/// parameter (recursion); with an equal one it is a cycle. Isolation works as for ``Factory``.
public struct ParameterFactory<P, T>: FactoryModifying, Sendable {
    /// What `register` and the context overrides take: `{ Service($0) }`.
    public typealias Closure = (P) -> T
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

    /// Compiled once per parameter and value type; see ``Factory``. A direct build records the
    /// parameter's address for cycle detection.
    // `__consuming`, and not turned back into a borrow: see `Factory.resolved()`.
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
}
