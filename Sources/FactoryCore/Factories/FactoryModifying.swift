/// The modifiers shared by ``Factory`` and ``ParameterFactory``.
///
/// Modifiers return a modified copy. In a definition they describe the factory
/// each time the container property is read:
///
/// ```swift
/// var cache: Factory<ImageCache> { self { ImageCache() }.cached }
/// ```
///
/// Chained after `register`, a context override (`onTest`, ...) or `once()`,
/// they persist in the container and win over the definition:
///
/// ```swift
/// Container.shared.cache.register { MockImageCache() }.singleton
/// ```
public protocol FactoryModifying {
    /// The parameter type; `Void` for ``Factory``.
    associatedtype P
    /// The type the factory resolves.
    associatedtype T
    /// The factory's definition and modifiers. An implementation detail of the
    /// modifiers; use the modifier methods instead.
    var registration: FactoryRegistration<P, T> { get set }
}

extension FactoryModifying {
    /// Uses `scope` for the instances this factory builds. `nil` means the
    /// container's `defaultScope` (unique unless set).
    ///
    /// When this value persists (after `register`), the scope is stored in the
    /// container and the factory's cached instance is dropped.
    @inlinable @discardableResult
    public func scope(_ scope: Scope?) -> Self {
        var copy = self
        copy.registration.setScope(scope)
        return copy
    }

    /// No caching: a new instance on every resolution.
    @inlinable
    public var unique: Self {
        scope(.unique)
    }

    /// Calls `decorator` with every instance this factory resolves, new or cached.
    @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (T) -> Void) -> Self {
        var copy = self
        copy.registration.setDecorator { value, _ in decorator(value) }
        return copy
    }

    /// Calls `decorator` with every instance this factory resolves, and whether
    /// it was just built (`true`) or came from a scope's cache (`false`).
    @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (T, Bool) -> Void) -> Self {
        var copy = self
        copy.registration.setDecorator(decorator)
        return copy
    }

    /// Makes modifiers chained after it persist, for registrations made at start-up.
    ///
    /// In Factory, definitions re-apply their modifiers on every evaluation and
    /// `once()` stops them from overwriting start-up registrations. Here a
    /// definition never overwrites a registration or a persisted scope in the first
    /// place, so `once()` only makes the rest of its chain persist, like `register`.
    @discardableResult
    public func once() -> Self {
        var copy = self
        copy.registration.persists = true
        return copy
    }

    /// Resets this factory: see ``FactoryResetOptions``. The default is `.all`.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }

    /// The factory's identity (container type, name, parameter and value type).
    public var key: FactoryKey {
        registration.key
    }
}
