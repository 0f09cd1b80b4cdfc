#if SwiftConcurrency
extension Factory {
    /// Resolves on the main actor, for factories whose closure builds main-actor objects, from any context:
    ///
    /// ```swift
    /// Task.detached {
    ///     let model = await Container.shared.contentViewModel.resolveOnMainActor()
    /// }
    /// ```
    ///
    /// Being `@MainActor`, the call hops to the main actor before resolution runs.
    @MainActor
    public func resolveOnMainActor() -> T { resolve() }

    /// Resolves on `actor`, for factories whose closure is isolated to that global actor (pass its
    /// `shared` instance), from any context:
    ///
    /// ```swift
    /// let manager = await Container.shared.dataManager.resolveOnGlobalActor(BackgroundActor.shared)
    /// ```
    ///
    /// The factory's type does not carry its closure's actor, so the compiler cannot check `actor`;
    /// passing another runs the closure there.
    public func resolveOnGlobalActor(_ actor: isolated any Actor) -> sending T { resolve() }
}

extension ParameterFactory {
    /// Resolves on the main actor; see ``Factory/resolveOnMainActor()``.
    @MainActor
    public func resolveOnMainActor(_ parameters: P) -> T { resolve(parameters) }

    /// Resolves on `actor`; see ``Factory/resolveOnGlobalActor(_:)``.
    public func resolveOnGlobalActor(_ actor: isolated any Actor, parameters: sending P) -> sending T {
        resolve(parameters)
    }
}

#endif
