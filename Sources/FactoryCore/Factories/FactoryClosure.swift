/// A factory's closure, as the resolution path calls it: a ``Factory``'s
/// definition, `() -> T` as written (converting it to `(Void) -> T` would need a
/// reabstraction thunk, an allocation per Factory value), or a closure taking the
/// parameter: a ``ParameterFactory``'s definition, and every registration and
/// context override (``FactoryModifying/Closure``, `(P) -> T`).
///
/// A struct with one optional per shape rather than an enum: copying and
/// destroying it is then two plain reference-count operations the optimizer sees,
/// not an outlined multi-payload-enum copy, and factory values are copied on
/// every definition evaluation.
@usableFromInline
package struct FactoryClosure<P, T> {
    @usableFromInline let plainClosure: (() -> T)?
    @usableFromInline let parameterClosure: ((P) -> T)?

    /// A closure without parameter (``Factory``).
    @inlinable
    package static func plain(_ closure: @escaping () -> T) -> Self {
        Self(plainClosure: closure, parameterClosure: nil)
    }

    /// A closure taking the parameter (``ParameterFactory``).
    @inlinable
    package static func parameter(_ closure: @escaping (P) -> T) -> Self {
        Self(plainClosure: nil, parameterClosure: closure)
    }

    @inlinable
    init(plainClosure: (() -> T)?, parameterClosure: ((P) -> T)?) {
        self.plainClosure = plainClosure
        self.parameterClosure = parameterClosure
    }

    /// Calls the closure. Reads the stored closure in place: binding it to a
    /// local would retain and release its context around every call.
    @_alwaysEmitIntoClient @inline(__always)
    package func callAsFunction(_ parameter: P) -> T {
        if plainClosure != nil { return plainClosure.unsafelyUnwrapped() }
        return parameterClosure.unsafelyUnwrapped(parameter)
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
/// Factory's API takes plain, non-`Sendable` closures: a closure written inside a
/// `@MainActor` property (or in a module whose default isolation is the main
/// actor) inherits that isolation, and a test's closure may capture a
/// non-`Sendable` mock. The functions that take them also take the caller's
/// isolation (`isolation: isolated (any Actor)? = #isolation`), which is the
/// isolation such a closure inherits; the library stores the closure as
/// `@Sendable` and checks that isolation itself when it runs the closure: a
/// main-actor closure only on the main actor (see
/// ``FactoryError/mainActorRequired(_:)``). A closure that captures
/// non-`Sendable` state is accepted as Factory accepts it and runs on the
/// resolving thread. (`@isolated(any)` would carry the isolation in the closure
/// itself, but costs an allocation every time a factory value is made.) This is
/// the one place where that conversion happens.
@usableFromInline
package enum ClosureAdapter {
    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package static func adapt<T>(_ factory: @escaping () -> T, _ isolation: (any Actor)?) -> (@Sendable () -> T, ClosureIsolation)
    {
        (unsafeBitCast(factory, to: (@Sendable () -> T).self), self.isolation(of: isolation))
    }

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package static func adapt<P, T>(
        _ factory: @escaping (P) -> T, _ isolation: (any Actor)?
    ) -> (@Sendable (P) -> T, ClosureIsolation) {
        (unsafeBitCast(factory, to: (@Sendable (P) -> T).self), self.isolation(of: isolation))
    }

    #if SwiftConcurrency
    /// Stores a closure written `{ @MainActor in ... }` (Factory 2.5's spelling).
    ///
    /// A synchronous function's global actor is part of its type only, not of its
    /// representation, so the cast keeps the closure as it is; the resolution path
    /// runs it only on the main actor because its isolation is recorded as `.main`.
    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package static func adapt<T>(mainActor factory: @escaping @MainActor () -> T) -> (@Sendable () -> T, ClosureIsolation) {
        (unsafeBitCast(factory, to: (@Sendable () -> T).self), .main)
    }

    /// Stores a closure written `{ @MainActor parameter in ... }`; see ``adapt(mainActor:)``.
    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package static func adapt<P, T>(
        mainActor factory: @escaping @MainActor (P) -> T
    ) -> (@Sendable (P) -> T, ClosureIsolation) {
        (unsafeBitCast(factory, to: (@Sendable (P) -> T).self), .main)
    }
    #endif

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package static func isolation(of actor: (any Actor)?) -> ClosureIsolation {
        guard let actor else { return .none }
        return classify(actor)
    }

    @usableFromInline
    static func classify(_ actor: any Actor) -> ClosureIsolation {
        #if SwiftConcurrency
        ObjectIdentifier(actor) == ObjectIdentifier(MainActor.shared) ? .main : .other
        #else
        .other
        #endif
    }
}
