extension FactoryModifying {
    /// One instance for the whole process; see ``Scope/singleton``.
    @inlinable public var singleton: Self { scope(.singleton) }

    /// One instance per container until its cache is reset; see ``Scope/cached``.
    @inlinable public var cached: Self { scope(.cached) }

    /// Held weakly while others hold it; see ``Scope/shared``.
    @inlinable public var shared: Self { scope(.shared) }

    /// One instance per resolution cycle; see ``Scope/graph``.
    @inlinable public var graph: Self { scope(.graph) }

    /// Cached per container, rebuilt on the first resolution `seconds` or more after it was built.
    ///
    /// Each call makes a new ``TimeToLive`` scope, so two factories never share an
    /// expiry cache; the identity of the interval, not the scope object, is what
    /// the factory keeps across definitions.
    public func timeToLive(_ seconds: Double) -> Self {
        scope(TimeToLive.forInterval(seconds))
    }
}

extension ParameterFactory where P: Hashable & SendableMetatype {
    /// Caches one instance per distinct parameter instead of keeping the first.
    ///
    /// Parameters are told apart by `==`: two values whose hashes collide but
    /// which are not equal never share an instance. Combine with a caching scope
    /// (`.cached.scopeOnParameters`); with none, the container's `.cached` scope is used.
    public var scopeOnParameters: Self {
        var copy = self
        copy.registration.parameterIdentity = { AnyHashable($0) }
        if copy.registration.scope == nil { copy.registration.setScope(.cached) }
        return copy
    }
}

extension TimeToLive {
    private static let intervals = LockedBox([UInt64: TimeToLive]())

    /// One scope per interval, so a definition re-evaluated on every resolution
    /// keeps hitting the same cache.
    static func forInterval(_ seconds: Double) -> TimeToLive {
        intervals.withLock { scopes in
            let bits = seconds.bitPattern
            if let scope = scopes[bits] { return scope }
            let scope = TimeToLive(seconds: seconds)
            scopes[bits] = scope
            return scope
        }
    }
}

extension ContainerManager {
    /// Drops every instance this container cached under `scope`.
    ///
    /// For ``Scope/singleton`` it resets this container's singleton storage (the
    /// process's, or a test's). Resetting `Scope.unique` has nothing to drop and
    /// stops a DEBUG build, since it is almost always a mistake; ``Scope/graph``
    /// lives only inside a resolution cycle and likewise has nothing to reset.
    public func reset(scope: Scope) {
        switch scope {
        case is Singleton:
            singletons.removeAll()
        case is Unique, is Graph:
            assertionFailure(
                "FactoryScopes: reset(scope:) of \(type(of: scope)) has nothing to reset; name a cached, shared, time-to-live or custom scope"
            )
        default:
            storage.remove(scopeID: ObjectIdentifier(scope))
        }
    }
}
