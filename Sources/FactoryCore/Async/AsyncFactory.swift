#if SwiftConcurrency
/// A factory whose closure is `async` and may throw: for services that need `await` to be built (a
/// database pool that connects, configuration read from disk, a client that performs a handshake).
/// Declared like any factory, as a container property:
///
/// ```swift
/// extension Container {
///     var database: AsyncFactory<Database> {
///         self { try await Database.connect(self.config()) }.singleton
///     }
/// }
/// let database = try await Container.shared.database()
/// ```
///
/// With a caching scope (cached, shared, singleton, a time to live) the closure runs once per cache generation however
/// many tasks resolve at once: the others suspend until the build finishes, and no thread blocks. If the build throws,
/// every waiting task gets that error, nothing is cached, and the next resolution tries again. Cancelling a waiting
/// task, even the one that started the build, makes that task throw `CancellationError` and never cancels the build,
/// which runs in a task of its own (inheriting the resolving task's task-locals, such as a `Container.$shared` binding)
/// and is cached for the others.
/// A build that a `register`, reset or `pop()` overtook hands its value to the task that started it alone and
/// keeps nothing of it: the instance is released once that task lets go of it.
///
/// A cycle (the closure resolving, through any number of `await`s, the same factory of the same
/// container) stops the program with the whole chain, in every build. The graph scope caches nothing here.
public struct AsyncFactory<T: Sendable>: FactoryModifying, Sendable {
    /// No parameter.
    public typealias P = Void
    /// What `register` and the context overrides take: `{ try await Database.connect() }`.
    public typealias Closure = @Sendable (P) async throws -> T
    /// The definition and modifiers; see ``FactoryModifying``.
    public var registration: FactoryRegistration
    @usableFromInline package var factory: AsyncClosure<Void, T>

    /// Creates an asynchronous factory bound to `container`.
    ///
    /// - Parameters:
    ///   - container: The container that owns registrations and caches for it.
    ///   - key: The factory's name; leave the default (`#function`, the property name).
    ///   - factory: Builds a new instance; it may resolve other factories, synchronous or not.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, _ factory: @escaping @Sendable () async throws -> T
    ) {
        registration = FactoryRegistration(
            container: container, name: key, valueType: T.self, parameterType: AsyncKind<Void>.self, isolation: .none)
        self.factory = AsyncClosure(plain: factory)
    }

    /// Resolves an instance: new, from the factory's scope, or from a build under way.
    @_alwaysEmitIntoClient @inline(__always)
    nonisolated(nonsending) public func callAsFunction() async throws -> T {
        let hit = registration.hit()
        if hit.isStrong { return hit.readStrong(T.self) }
        hit.end()
        return try await AsyncPath.resolve(registration, factory, ())
    }

    /// Resolves an instance; the same as calling the factory.
    nonisolated(nonsending) public func resolve() async throws -> T {
        try await callAsFunction()
    }
}

/// An asynchronous factory that takes a parameter: see ``AsyncFactory``. A cycle is the same factory of
/// the same container re-entered with an equal parameter; another parameter is ordinary recursion.
public struct AsyncParameterFactory<P: Sendable, T: Sendable>: FactoryModifying, Sendable {
    /// What `register` and the context overrides take: `{ try await Session(user: $0) }`.
    public typealias Closure = @Sendable (P) async throws -> T
    /// The definition and modifiers; see ``FactoryModifying``.
    public var registration: FactoryRegistration
    @usableFromInline package var factory: AsyncClosure<P, T>

    /// Creates an asynchronous factory bound to `container`.
    ///
    /// - Parameters:
    ///   - container: The container that owns registrations and caches for it.
    ///   - key: The factory's name; leave the default (`#function`).
    ///   - factory: Builds a new instance from the parameter.
    @_transparent @_alwaysEmitIntoClient
    public init<C: ManagedContainer>(
        _ container: C, key: StaticString = #function, _ factory: @escaping @Sendable (P) async throws -> T
    ) {
        registration = FactoryRegistration(
            container: container, name: key, valueType: T.self, parameterType: AsyncKind<P>.self, isolation: .none)
        self.factory = AsyncClosure(withParameter: factory)
    }

    /// Resolves an instance for `parameter`.
    @_alwaysEmitIntoClient @inline(__always)
    nonisolated(nonsending) public func callAsFunction(_ parameter: P) async throws -> T {
        let hit = registration.hit()
        if hit.isStrong { return hit.readStrong(T.self) }
        hit.end()
        return try await AsyncPath.resolve(registration, factory, parameter)
    }

    /// Resolves an instance for `parameter`; the same as calling the factory.
    nonisolated(nonsending) public func resolve(_ parameter: P) async throws -> T {
        try await callAsFunction(parameter)
    }
}

extension ManagedContainer {
    /// Makes an ``AsyncFactory`` bound to this container: `self { try await Database.connect() }`.
    /// Leave `key` to its default (`#function`, the factory's name).
    @_transparent @_alwaysEmitIntoClient
    public func callAsFunction<T: Sendable>(
        key: StaticString = #function, _ factory: @escaping @Sendable () async throws -> T
    ) -> AsyncFactory<T> {
        AsyncFactory(self, key: key, factory)
    }

    /// Makes an ``AsyncParameterFactory`` bound to this container; leave `key` to its default (`#function`).
    @_transparent @_alwaysEmitIntoClient
    public func callAsFunction<P: Sendable, T: Sendable>(
        key: StaticString = #function, _ factory: @escaping @Sendable (P) async throws -> T
    ) -> AsyncParameterFactory<P, T> {
        AsyncParameterFactory(self, key: key, factory)
    }
}
/// As written, with or without a parameter, so no wrapping closure is allocated.
@usableFromInline
package struct AsyncClosure<P, T>: Sendable {
    @usableFromInline let plain: (@Sendable () async throws -> T)?
    @usableFromInline let withParameter: (@Sendable (P) async throws -> T)?

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init(plain: @escaping @Sendable () async throws -> T) {
        self.plain = plain
        withParameter = nil
    }

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init(withParameter: @escaping @Sendable (P) async throws -> T) {
        plain = nil
        self.withParameter = withParameter
    }

    package func callAsFunction(_ parameter: P) async throws -> T {
        do {
            if let plain { return try await plain() }
            return try await withParameter!(parameter)
        } catch {
            AsyncValidation.thrown?.report(AsyncChain.current?.keys ?? [], error)
            throw error
        }
    }
}

/// Marks an asynchronous factory's key: the parameter type ``FactoryKey`` holds
/// for an ``AsyncFactory`` (`P` is `Void`) or ``AsyncParameterFactory``.
public enum AsyncKind<P> {}
#endif
