#if SwiftConcurrency
extension AsyncFactory {
    /// One instance per singleton storage (the process's), built once however many tasks ask.
    @inlinable public var singleton: Self {
        consuming get {
            registration.setScopeProperty(.singleton)
            return self
        }
    }

    /// One instance per container until its cache is reset, built once however many tasks ask.
    @inlinable public var cached: Self {
        consuming get {
            registration.setScopeProperty(.cached)
            return self
        }
    }

    /// Held weakly while others hold it (objects only), built once however many tasks ask.
    @inlinable public var shared: Self {
        consuming get {
            registration.setScopeProperty(.shared)
            return self
        }
    }

    /// No caching: every resolution runs the closure (the default).
    @inlinable public var unique: Self {
        consuming get {
            registration.setScopeProperty(.unique)
            return self
        }
    }

    /// Rebuilds a cached instance on the first resolution `seconds` or more after
    /// it was built; no effect without a caching scope, as for synchronous factories.
    /// A negative or non-finite interval stops the program naming the factory.
    ///
    /// - Parameters:
    ///   - seconds: The lifetime of a cached instance.
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    public func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        var copy = self
        copy.registration.setTimeToLive(seconds, caller: caller)
        return copy
    }
}

extension AsyncParameterFactory {
    /// One instance per singleton storage; see ``AsyncFactory/singleton``.
    @inlinable public var singleton: Self {
        consuming get {
            registration.setScopeProperty(.singleton)
            return self
        }
    }

    /// One instance per container; see ``AsyncFactory/cached``.
    @inlinable public var cached: Self {
        consuming get {
            registration.setScopeProperty(.cached)
            return self
        }
    }

    /// Held weakly while others hold it; see ``AsyncFactory/shared``.
    @inlinable public var shared: Self {
        consuming get {
            registration.setScopeProperty(.shared)
            return self
        }
    }

    /// No caching (the default).
    @inlinable public var unique: Self {
        consuming get {
            registration.setScopeProperty(.unique)
            return self
        }
    }

    /// Caches one instance per distinct parameter instead of keeping the first. A
    /// parameter that is not `Hashable`, or not equal to itself (NaN), is built
    /// every time and never cached. Its `hash(into:)` and `==` run with no
    /// library lock held: they may resolve from the same container.
    public var scopeOnParameters: Self {
        var copy = self
        copy.registration.setScopeOnParameters(caller: registration.name)
        return copy
    }

    /// Rebuilds a cached instance after `seconds`; see ``AsyncFactory/timeToLive(_:caller:)``.
    ///
    /// - Parameters:
    ///   - seconds: The lifetime of a cached instance.
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    public func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        var copy = self
        copy.registration.setTimeToLive(seconds, caller: caller)
        return copy
    }
}
#endif
