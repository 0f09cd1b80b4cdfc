/// A factory's closure, as the resolution path calls it. `Factory` keeps its
/// `() -> T` as written: converting it to `(Void) -> T` would need a
/// reabstraction thunk, an allocation per Factory value.
@usableFromInline
package enum FactoryClosure<P, T>: Sendable {
    /// A closure without parameter (``Factory``).
    case plain(@Sendable () -> T)
    /// A closure taking the parameter (``ParameterFactory``).
    case parameter(@Sendable (P) -> T)

    @inlinable
    package func callAsFunction(_ parameter: P) -> T {
        switch self {
        case .plain(let factory): return factory()
        case .parameter(let factory): return factory(parameter)
        }
    }
}

/// Which actor a factory closure is isolated to, as far as resolution cares.
@usableFromInline
package enum ClosureIsolation: UInt8, Sendable {
    /// Not isolated: runs on whatever thread resolves.
    case none
    /// Isolated to the main actor: resolving it off the main thread stops the program.
    case main
    /// Isolated to another global actor: runs on the resolving thread, as in Factory.
    case other
}

/// Turns the closures users write into what the library stores.
///
/// Factory's API takes plain closures: a closure written inside a `@MainActor`
/// property (or in a module whose default isolation is the main actor) inherits
/// that isolation, and a test's closure may capture a non-`Sendable` mock. Swift
/// expresses "any isolation" only as `@isolated(any)`, which keeps the actor the
/// closure was formed on. The library stores such a closure as `@Sendable` and
/// checks that isolation itself when it runs the closure: a main-actor closure
/// only on the main thread (see ``FactoryError/mainActorRequired(_:)``). A
/// closure that is neither `Sendable` nor isolated (it captures non-`Sendable`
/// state) is accepted as Factory accepts it, and runs on the resolving thread.
/// This function is the one place where that conversion happens.
@usableFromInline
package enum ClosureAdapter {
    @inlinable
    package static func adapt<T>(_ factory: @escaping @isolated(any) () -> T) -> (@Sendable () -> T, ClosureIsolation) {
        (unsafeBitCast(factory, to: (@Sendable () -> T).self), isolation(of: factory.isolation))
    }

    @inlinable
    package static func adapt<P, T>(_ factory: @escaping @isolated(any) (P) -> T) -> (@Sendable (P) -> T, ClosureIsolation) {
        (unsafeBitCast(factory, to: (@Sendable (P) -> T).self), isolation(of: factory.isolation))
    }

    @inlinable
    package static func isolation(of actor: (any Actor)?) -> ClosureIsolation {
        guard let actor else { return .none }
        return classify(actor)
    }

    @usableFromInline
    static func classify(_ actor: any Actor) -> ClosureIsolation {
        ObjectIdentifier(actor) == ObjectIdentifier(MainActor.shared) ? .main : .other
    }
}
