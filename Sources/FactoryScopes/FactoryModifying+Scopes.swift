// The caching modifiers, once for every kind of factory. Each property gets its
// scope from one call to the library (not the lazy global's accessor) and stores
// it in the definition inline (`setScopeProperty`).

extension FactoryModifying {
    /// One instance per singleton storage (the process's): see ``Scope/singleton``.
    /// Built once however many threads or tasks resolve it at the same moment.
    @_transparent @_alwaysEmitIntoClient public var singleton: Self {
        consuming get {
            registration.setScopeProperty(FactoryRegistration.singletonScope())
            return self
        }
    }

    /// One instance per container until its cache is reset; see ``Scope/cached``.
    /// Built once however many threads or tasks resolve it at the same moment.
    @_transparent @_alwaysEmitIntoClient public var cached: Self {
        consuming get {
            registration.setScopeProperty(FactoryRegistration.cachedScope())
            return self
        }
    }

    /// Held weakly while others hold it (objects only); see ``Scope/shared``.
    @_transparent @_alwaysEmitIntoClient public var shared: Self {
        consuming get {
            registration.setScopeProperty(FactoryRegistration.sharedScope())
            return self
        }
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
    public consuming func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        guard seconds.isFinite, seconds >= 0 else { FactoryError.fail(.invalidTimeToLive(key, seconds: seconds)) }
        // At least 1 nanosecond (0 is none); beyond what the clock counts, never.
        let nanoseconds = seconds * 1_000_000_000 >= Double(UInt64.max) ? UInt64.max : max(UInt64(seconds * 1_000_000_000), 1)
        // The definition keeps its own inline, for the lock-free hit.
        guard registration.persists(calledFrom: caller) else {
            registration.ttl = nanoseconds
            return self
        }
        registration.modify(persist: true) { options, _ in
            options.ttl = nanoseconds
            return false
        }
        return self
    }
}

extension FactoryModifying where P: Hashable {
    /// Caches one instance per distinct parameter instead of keeping the first.
    ///
    /// Parameters are told apart by `==`: two values whose hashes collide but
    /// which are not equal never share an instance. A parameter that is not equal
    /// to itself (`Double.nan`) can never be found again, so its instance is
    /// built and not cached. Combine with a caching scope (`.cached.scopeOnParameters`). Every kind
    /// with a `Hashable` parameter takes it, asynchronous ones included.
    ///
    /// The parameter's `hash(into:)` and `==` run with no library lock held, so
    /// they may resolve from the same container: the hash is taken before
    /// locking, and the parameter is compared with the cached ones of its hash
    /// after unlocking.
    @_alwaysEmitIntoClient public var scopeOnParameters: Self {
        consuming get {
            // A trait in the definition, so such a definition allocates nothing.
            guard registration.traits.contains(.persists) else {
                registration.traits.insert([.scopeOnParameters, .general])
                return self
            }
            registration.modify(persist: true) { options, _ in
                let changed = options.scopeOnParameters != true
                options.scopeOnParameters = true
                return changed
            }
            return self
        }
    }
}

// The synchronous kinds only: an asynchronous resolution's awaits leave the thread
// whose resolution cycle keeps graph instances.
extension FactoryModifying where Closure == (P) -> T {
    /// One instance per resolution cycle; see ``Scope/graph``.
    @_transparent @_alwaysEmitIntoClient public var graph: Self {
        consuming get {
            registration.setScopeProperty(FactoryRegistration.graphScope())
            return self
        }
    }
}

#if SwiftConcurrency
extension AsyncFactory {
    /// Not available: the graph scope shares an instance within one synchronous
    /// resolution cycle, which an asynchronous factory's `await`s leave. Use
    /// `.cached` or `.singleton`, or a synchronous factory.
    @available(*, unavailable, message: "the graph scope is for synchronous factories; use .cached or .singleton")
    public var graph: Self { self }
}

extension AsyncParameterFactory {
    /// Not available: see ``AsyncFactory/graph``.
    @available(*, unavailable, message: "the graph scope is for synchronous factories; use .cached or .singleton")
    public var graph: Self { self }
}
#endif

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
        } else if scope.keeping == .cells || scope.keeping == .preparedCells {
            removeAll(scope: scope)
        }
    }
}
