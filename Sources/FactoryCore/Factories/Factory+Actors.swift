extension Factory {
    /// Resolves on the main actor, for factories whose closure builds main-actor
    /// objects (`self { MainActor.assumeIsolated { ViewModel() } }`).
    ///
    /// Being `@MainActor`, the call is checked by the compiler; the closure then
    /// runs on the main actor, so its `assumeIsolated` holds.
    @MainActor
    public func resolveOnMainActor() -> T {
        resolve()
    }

    /// Resolves on `actor`'s executor and returns the result there, for factories
    /// whose closure must run on a global actor.
    ///
    /// The instance crosses back to the caller, so `T` must be `Sendable`.
    public func resolveOnGlobalActor<A: GlobalActor>(_ actor: A.Type) async -> T where T: Sendable {
        let executor: any Actor = A.shared
        return await Self.run(on: executor) { self.resolve() }
    }

    private static func run<R: Sendable>(on actor: isolated any Actor, _ body: @Sendable () -> R) -> R {
        body()
    }
}

extension ParameterFactory {
    /// Resolves on the main actor; see ``Factory/resolveOnMainActor()``.
    @MainActor
    public func resolveOnMainActor(_ parameters: P) -> T {
        resolve(parameters)
    }
}
