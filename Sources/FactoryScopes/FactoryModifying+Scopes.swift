extension FactoryModifying {
    /// One instance per singleton storage (the process's): see ``Scope/singleton``.
    @inlinable public var singleton: Self {
        consuming get { scopeProperty(.singleton) }
    }

    /// One instance per container until its cache is reset; see ``Scope/cached``.
    @inlinable public var cached: Self {
        consuming get { scopeProperty(.cached) }
    }

    /// Held weakly while others hold it; see ``Scope/shared``.
    @inlinable public var shared: Self {
        consuming get { scopeProperty(.shared) }
    }

    /// One instance per resolution cycle; see ``Scope/graph``.
    @inlinable public var graph: Self {
        consuming get { scopeProperty(.graph) }
    }

    /// Rebuilds a cached instance (of any caching scope: cached, shared, singleton,
    /// custom) on the first resolution `seconds` or more after it was built.
    ///
    /// Hits do not extend the lifetime, and the clock is monotonic. An interval
    /// too large for the clock (more than about 584 years) never expires; a
    /// negative or non-finite one stops the program with a message naming the
    /// factory. Applied outside the factory's definition it persists. On a factory
    /// that caches nothing (`.unique`, the default) it has no effect, as in Factory:
    /// combine it with a scope, `.cached.timeToLive(60)`.
    ///
    /// - Parameters:
    ///   - seconds: The lifetime of a cached instance.
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    @discardableResult
    public func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        var copy = self
        copy.registration.setTimeToLive(seconds, caller: caller)
        return copy
    }
}

extension FactoryModifying where P: Hashable {
    /// Caches one instance per distinct parameter instead of keeping the first.
    ///
    /// Parameters are told apart by `==`: two values whose hashes collide but
    /// which are not equal never share an instance. A parameter that is not equal
    /// to itself (`Double.nan`) can never be found again, so its instance is
    /// built and not cached. Combine with a caching scope (`.cached.scopeOnParameters`).
    ///
    /// The parameter's `hash(into:)` and `==` run with no library lock held, so
    /// they may resolve from the same container: the hash is taken before
    /// locking, and the parameter is compared with the cached ones of its hash
    /// after unlocking.
    public var scopeOnParameters: Self {
        var copy = self
        copy.registration.setScopeOnParameters(persist: registration.traits.contains(.persists))
        return copy
    }
}

extension ContainerManager {
    /// Drops every instance this container cached under `scope`.
    ///
    /// As in Factory, a container does not own singletons: for ``Scope/singleton``
    /// this does nothing (it logs a note in DEBUG builds); use
    /// `Scope.singleton.reset()`. ``Scope/unique`` and ``Scope/graph`` cache
    /// nothing in a container, so there is nothing to reset.
    public func reset(scope: Scope) {
        if scope is Singleton {
            #if DEBUG
            logger(
                "FactoryScopes: reset(scope: .singleton) on a container does nothing; singletons are reset with Scope.singleton.reset()"
            )
            #endif
        } else if scope.keeping == .cells {
            removeAll(scope: scope)
        }
    }
}

// The same modifiers on the concrete types. A modifier in the protocol extension
// reads and writes `registration` through the protocol's witness, which copies the
// whole factory value on every definition evaluation; these touch the stored
// property directly. They are what concrete code calls; the extension above
// serves code generic over `FactoryModifying`. One generic copy for all four
// factory kinds (a protocol over Factory, ParameterFactory and the async
// factories) was measured: even specialized, its consuming getter copies the
// registration through value witnesses, and a cached hit went from 393 to 638
// instructions. So each kind keeps its own, AsyncFactory+Scopes.swift included.

extension Factory {
    /// One instance per singleton storage (the process's): see ``Scope/singleton``.
    @inlinable public var singleton: Self {
        consuming get {
            registration.setScopeProperty(.singleton)
            return self
        }
    }

    /// One instance per container until its cache is reset; see ``Scope/cached``.
    @inlinable public var cached: Self {
        consuming get {
            registration.setScopeProperty(.cached)
            return self
        }
    }

    /// Held weakly while others hold it; see ``Scope/shared``.
    @inlinable public var shared: Self {
        consuming get {
            registration.setScopeProperty(.shared)
            return self
        }
    }

    /// One instance per resolution cycle; see ``Scope/graph``.
    @inlinable public var graph: Self {
        consuming get {
            registration.setScopeProperty(.graph)
            return self
        }
    }

    /// Rebuilds a cached instance `seconds` after it was built; see ``FactoryModifying/timeToLive(_:caller:)``.
    @inlinable @discardableResult
    public consuming func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        registration.setTimeToLive(seconds, caller: caller)
        return self
    }
}

extension ParameterFactory {
    /// One instance per singleton storage (the process's): see ``Scope/singleton``.
    @inlinable public var singleton: Self {
        consuming get {
            registration.setScopeProperty(.singleton)
            return self
        }
    }

    /// One instance per container until its cache is reset; see ``Scope/cached``.
    @inlinable public var cached: Self {
        consuming get {
            registration.setScopeProperty(.cached)
            return self
        }
    }

    /// Held weakly while others hold it; see ``Scope/shared``.
    @inlinable public var shared: Self {
        consuming get {
            registration.setScopeProperty(.shared)
            return self
        }
    }

    /// One instance per resolution cycle; see ``Scope/graph``.
    @inlinable public var graph: Self {
        consuming get {
            registration.setScopeProperty(.graph)
            return self
        }
    }

    /// Rebuilds a cached instance `seconds` after it was built; see ``FactoryModifying/timeToLive(_:caller:)``.
    @inlinable @discardableResult
    public consuming func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        registration.setTimeToLive(seconds, caller: caller)
        return self
    }
}

extension ParameterFactory where P: Hashable {
    /// One instance per distinct parameter; see ``FactoryModifying/scopeOnParameters``.
    @inlinable public var scopeOnParameters: Self {
        consuming get {
            registration.setScopeOnParameters(persist: registration.traits.contains(.persists))
            return self
        }
    }
}
