/// A factory: builds, or fetches from its scope, an instance of `T`.
///
/// Made inside a computed property of a container, each time the property is read:
///
/// ```swift
/// extension Container {
///     var service: Factory<any ServiceType> { self { Service() } }            // sugar
///     var formal: Factory<any ServiceType> { Factory(self) { Service() } }   // the same
///     @MainActor var model: Factory<ContentViewModel> { self { ContentViewModel() } }
/// }
/// let service = Container.shared.service()
/// ```
///
/// A factory is a small value; making one allocates nothing unless its closure captures something. Its
/// identity is the container type, the property name (`#function`) and `T`.
///
/// The closure keeps the isolation of the place it is written: in a `@MainActor` property (or a module whose default
/// isolation is the main actor) it is a main-actor closure, and resolving the factory off the main thread stops the
/// program with a message naming it; use ``resolveOnMainActor()`` from other contexts. A closure isolated to another
/// global actor runs on the resolving thread, as in Factory; use ``resolveOnGlobalActor(_:)`` to run it there.
public struct Factory<T>: FactoryModifying, Sendable {
    /// No parameter.
    public typealias P = Void
    /// What `register` and the context overrides take: `{ Service() }`.
    public typealias Closure = (P) -> T
    /// The definition and modifiers; see ``FactoryModifying``.
    public var registration: FactoryRegistration
    /// The definition's closure.
    @usableFromInline package var factory: @Sendable () -> T

    /// Creates a factory bound to `container`.
    ///
    /// - Parameters:
    ///   - container: The container that owns registrations and caches for it.
    ///   - key: The factory's name; leave the default (`#function`, the property name).
    ///   - isolation: Leave the default (`#isolation`): the actor the closure is isolated to, checked when it runs.
    ///   - factory: Builds a new instance. It may resolve other factories.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, isolation: isolated (any Actor)? = #isolation, _ factory: @escaping () -> T
    ) {
        let (closure, closureIsolation) = ClosureAdapter.adapt(factory, isolation)
        self.init(container, key, closure, closureIsolation)
    }

    // The definition's chain (container `callAsFunction`, these inits, the closure adapter, the
    // header's init, scope modifiers) is transparent: inlined before optimization, so an app does
    // not specialize each per factory type first (about half its optimization time; Benchmarks/README.md).
    @_transparent @_alwaysEmitIntoClient @usableFromInline
    init<C: ManagedContainer>(
        _ container: C, _ name: StaticString, _ factory: @escaping @Sendable () -> T, _ isolation: ClosureIsolation
    ) {
        registration = FactoryRegistration(
            container: container, name: name, valueType: T.self, parameterType: Void.self, isolation: isolation)
        self.factory = factory
    }

    /// Resolves an instance: new, or from the factory's scope.
    @_alwaysEmitIntoClient @inline(__always)
    public __consuming func callAsFunction() -> T {
        resolved()
    }

    /// Resolves an instance: new, or from the factory's scope.
    @_alwaysEmitIntoClient @inline(__always)
    public __consuming func resolve() -> T {
        resolved()
    }

    /// Compiled once per value type: the lookup is the library's (``FactoryRegistration/fastStep(parameter:)``); this
    /// does only what needs `T` (read the found cell, run a direct build's closure). Each use of `registration` and
    /// `factory` is its own function: unoptimized, each use copies them into this frame, which nested resolutions keep
    /// on the stack (RELIABILITY.md, guarantee 10).
    // `__consuming`: the caller hands over the value it just made, leaving fewer retains and releases; not `consuming`,
    // whose mutable binding an unoptimized build copies at each use. The semantics attribute stops specialization
    // turning it back into a borrow, which would make the caller copy the whole value into a second temporary.
    @_alwaysEmitIntoClient @inline(never) @usableFromInline
    @_semantics("optimize.sil.specialize.owned2guarantee.never")
    __consuming func resolved() -> T {
        let step = Self.fastStep(self)
        if let build = step.build { return Self.build(self, entered: build) }
        if step.hit.isStrong { return step.hit.readStrong(T.self) }
        // A weak cell's instance may be gone: read with the library's own code.
        if step.hit.cell != nil { return Self.resolve(self, weakHit: step.hit) }
        return Self.resolveGenerally(self)
    }

    @_alwaysEmitIntoClient
    static func fastStep(_ factory: borrowing Self) -> FastStep {
        factory.registration.fastStep(parameter: nil)
    }

    @_alwaysEmitIntoClient
    static func build(_ factory: borrowing Self, entered context: Unmanaged<ResolutionContext>) -> T {
        let value = factory.factory()
        factory.registration.endDirectBuild(context)
        return value
    }

    @_alwaysEmitIntoClient
    static func resolve(_ factory: borrowing Self, weakHit: CellHit) -> T {
        GeneralPath.resolve(factory.registration, factory.factory, weakHit: weakHit)
    }

    @_alwaysEmitIntoClient
    static func resolveGenerally(_ factory: borrowing Self) -> T {
        GeneralPath.resolve(factory.registration, factory.factory)
    }
}
