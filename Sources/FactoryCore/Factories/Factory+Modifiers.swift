// The modifiers of ``FactoryModifying`` on the concrete type, so that concrete code
// touches the stored `registration` directly; through the protocol's witness every
// modifier would copy the whole factory value.

extension Factory {
    /// Uses `scope` for the instances this factory builds; see ``FactoryModifying/scope(_:caller:)``.
    @inlinable @discardableResult
    public consuming func scope(_ scope: Scope?, caller: StaticString = #function) -> Self {
        registration.setScope(scope, persist: registration.persists(calledFrom: caller))
        return self
    }

    /// No caching: a new instance on every resolution.
    @inlinable public var unique: Self {
        consuming get {
            registration.setScopeProperty(.unique)
            return self
        }
    }

    /// Calls `decorator` with every instance this factory resolves; see ``FactoryModifying/decorator(caller:_:)-(_,(Self.T)->Void)``.
    @inlinable @discardableResult
    public consuming func decorator(caller: StaticString = #function, _ decorator: @escaping @Sendable (T) -> Void) -> Self {
        registration.setDecorator({ value, _ in decorator(value) }, persist: registration.persists(calledFrom: caller))
        return self
    }

    /// Calls `decorator` with every instance and whether it was just built; see ``FactoryModifying/decorator(caller:_:)-(_,(Self.T,Bool)->Void)``.
    @inlinable @discardableResult
    public consuming func decorator(caller: StaticString = #function, _ decorator: @escaping @Sendable (T, Bool) -> Void) -> Self
    {
        registration.setDecorator(decorator, persist: registration.persists(calledFrom: caller))
        return self
    }

    /// Applies the definition's modifiers once; see ``FactoryModifying/once()``.
    @inlinable @discardableResult
    public consuming func once() -> Self {
        registration.applyOnce()
        return self
    }
}

extension ParameterFactory {
    /// Uses `scope` for the instances this factory builds; see ``FactoryModifying/scope(_:caller:)``.
    @inlinable @discardableResult
    public consuming func scope(_ scope: Scope?, caller: StaticString = #function) -> Self {
        registration.setScope(scope, persist: registration.persists(calledFrom: caller))
        return self
    }

    /// No caching: a new instance on every resolution.
    @inlinable public var unique: Self {
        consuming get {
            registration.setScopeProperty(.unique)
            return self
        }
    }

    /// Calls `decorator` with every instance this factory resolves; see ``FactoryModifying/decorator(caller:_:)-(_,(Self.T)->Void)``.
    @inlinable @discardableResult
    public consuming func decorator(caller: StaticString = #function, _ decorator: @escaping @Sendable (T) -> Void) -> Self {
        registration.setDecorator({ value, _ in decorator(value) }, persist: registration.persists(calledFrom: caller))
        return self
    }

    /// Calls `decorator` with every instance and whether it was just built; see ``FactoryModifying/decorator(caller:_:)-(_,(Self.T,Bool)->Void)``.
    @inlinable @discardableResult
    public consuming func decorator(caller: StaticString = #function, _ decorator: @escaping @Sendable (T, Bool) -> Void) -> Self
    {
        registration.setDecorator(decorator, persist: registration.persists(calledFrom: caller))
        return self
    }

    /// Applies the definition's modifiers once; see ``FactoryModifying/once()``.
    @inlinable @discardableResult
    public consuming func once() -> Self {
        registration.applyOnce()
        return self
    }
}
