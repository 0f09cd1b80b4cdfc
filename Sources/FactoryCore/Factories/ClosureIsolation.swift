@usableFromInline
package enum ClosureIsolation: UInt8, Sendable {
    case none
    /// Resolving it off the main thread stops the program.
    case main
    /// Another global actor: runs on the resolving thread, as in Factory.
    case other
}

/// The one place user closures become what the library stores. Factory's API takes plain, non-`Sendable` closures that
/// inherit the caller's isolation; the functions taking them also take that isolation (`#isolation`), so the library
/// stores the closure as `@Sendable` and checks the isolation itself when it runs (a main-actor closure only on the
/// main actor, ``FactoryError/mainActorRequired(_:)``). `@isolated(any)` would carry it in the closure, but costs an
/// allocation per factory value.
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
    /// `{ @MainActor in ... }`: a sync function's global actor is in its type, not its
    /// representation, so the cast is sound; resolution runs it only on the main actor (`.main`).
    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package static func adapt<T>(mainActor factory: @escaping @MainActor () -> T) -> (@Sendable () -> T, ClosureIsolation) {
        (unsafeBitCast(factory, to: (@Sendable () -> T).self), .main)
    }

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
