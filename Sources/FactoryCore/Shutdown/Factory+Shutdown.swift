#if SwiftConcurrency
extension FactoryModifying where T: Sendable {
    /// Declares how an instance this factory caches is shut down, when its
    /// container's ``ContainerManager/shutdown(includingSingletons:timeout:)`` runs.
    ///
    /// ```swift
    /// var client: Factory<HTTPClient> {
    ///     self { HTTPClient(eventLoopGroupProvider: .singleton) }
    ///         .singleton
    ///         .onShutdown { try await $0.shutdown() }
    /// }
    /// ```
    ///
    /// Only cached instances are shut down (`.cached`, `.singleton`, custom
    /// scopes): an instance a unique, graph or `.shared` factory hands out
    /// belongs to its caller. Applied outside the factory's definition it
    /// persists, like every modifier.
    ///
    /// - Parameters:
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - shutdown: Called once with the instance, with no lock held; may throw
    ///     (the error is reported with the others of the same shutdown).
    @discardableResult
    public func onShutdown(
        caller: StaticString = #function, _ shutdown: @escaping @Sendable (T) async throws -> Void
    ) -> Self {
        var copy = self
        copy.registration.setShutdown(ShutdownHandler(shutdown), persist: registration.persists(calledFrom: caller))
        return copy
    }
}

extension AsyncFactory {
    /// Declares how an instance this factory caches is shut down; see
    /// ``FactoryModifying/onShutdown(caller:_:)``.
    ///
    /// - Parameters:
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - shutdown: Called once with the instance, with no lock held.
    @discardableResult
    public func onShutdown(caller: StaticString = #function, _ shutdown: @escaping @Sendable (T) async throws -> Void) -> Self {
        var copy = self
        copy.registration.setShutdown(ShutdownHandler(shutdown), caller: caller)
        return copy
    }
}

extension AsyncParameterFactory {
    /// Declares how an instance this factory caches is shut down; see
    /// ``FactoryModifying/onShutdown(caller:_:)``.
    ///
    /// - Parameters:
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - shutdown: Called once with each cached instance, with no lock held.
    @discardableResult
    public func onShutdown(caller: StaticString = #function, _ shutdown: @escaping @Sendable (T) async throws -> Void) -> Self {
        var copy = self
        copy.registration.setShutdown(ShutdownHandler(shutdown), caller: caller)
        return copy
    }
}
#endif
