/// The modifiers every kind of factory shares: ``Factory``, ``ParameterFactory``, ``AsyncFactory`` and
/// ``AsyncParameterFactory``. A modifier written in the definition describes the factory each time its
/// container property is read:
///
/// ```swift
/// var cache: Factory<ImageCache> { self { ImageCache() }.cached }
/// ```
///
/// A modifier applied anywhere else persists in the container and wins over the definition until the
/// factory or the container is reset:
///
/// ```swift
/// Container.shared.cache.scope(.singleton)          // from now on a singleton
/// Container.shared.cache.register { MockImageCache() }.singleton
/// ```
///
/// Modifier methods (`scope(_:)`, `decorator(_:)`, `timeToLive(_:)`, the context overrides) tell the two
/// apart by the calling function's name: inside the property (or function) that defines the factory
/// they belong to the definition. Modifier properties (`.cached`, `.singleton`, ...) belong to the
/// definition unless chained after `register`, a run-time context override or `once()`. A definition
/// never overwrites what was persisted. Every kind takes every modifier, with the same meaning, but two:
/// `.graph` (FactoryScopes) is for the synchronous kinds, whose resolution cycle belongs to a thread (on an
/// asynchronous one it does not compile), and `scopeOnParameters` needs a `Hashable` parameter.
public protocol FactoryModifying {
    /// The parameter type; `Void` for ``Factory`` and ``AsyncFactory``.
    associatedtype P
    /// The type the factory resolves.
    associatedtype T
    /// What `register`, the context overrides and the registration sugar take: `(P) -> T` for the synchronous kinds
    /// (`{ Service() }` fits when `P` is `Void`), `@Sendable (P) async throws -> T` for the asynchronous ones.
    associatedtype Closure
    /// The definition and modifiers: an implementation detail; use the modifier methods instead.
    var registration: FactoryRegistration { get set }
}

extension FactoryModifying {
    /// Uses `scope` for the instances this factory builds; `nil` means the container's `defaultScope` (unique unless
    /// set). Applied outside the definition it persists, and drops the instance cached under the previous scope.
    ///
    /// - Parameters:
    ///   - scope: The scope, e.g. `.cached` or a custom `Cached()` instance.
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func scope(_ scope: Scope?, caller: StaticString = #function) -> Self {
        registration.setScope(scope, caller: caller)
        return self
    }

    /// No caching: a new instance on every resolution.
    @_alwaysEmitIntoClient
    public var unique: Self {
        consuming get {
            registration.setScopeProperty(FactoryRegistration.uniqueScope())
            return self
        }
    }

    /// Calls `decorator` with every instance this factory resolves, new or cached.
    ///
    /// - Parameters:
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - decorator: Called after each resolution, outside any lock.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func decorator(caller: StaticString = #function, _ decorator: @escaping @Sendable (T) -> Void) -> Self {
        registration.setDecorator(DecoratorBox<T> { value, _ in decorator(value) }, caller: caller)
        return self
    }

    /// Calls `decorator` with every instance this factory resolves, and whether it was just built (`true`)
    /// or came from a scope's cache (`false`).
    ///
    /// - Parameters:
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - decorator: Called after each resolution, outside any lock.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func decorator(
        caller: StaticString = #function, _ decorator: @escaping @Sendable (T, Bool) -> Void
    ) -> Self {
        registration.setDecorator(DecoratorBox(decorator), caller: caller)
        return self
    }

    /// Applies the modifiers before it in the definition only the first time the factory is read, and makes the
    /// modifiers after it persist. The first evaluation persists what the definition set (scope, decorator, contexts,
    /// ...); later evaluations' own modifiers are ignored, so run-time changes, and resets of parts of them
    /// (`reset(.context)`), stand. A full reset (`reset()`, `manager.reset()`) starts over.
    @_alwaysEmitIntoClient @discardableResult
    public consuming func once() -> Self {
        registration.applyOnce()
        return self
    }

    /// Resets this factory: see ``FactoryResetOptions``. The default is `.all`.
    @_alwaysEmitIntoClient @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }

    /// The factory's identity (container type, name, parameter and value type).
    public var key: FactoryKey { registration.key }
}
