import FactoryScopes

extension Container {
    /// The caller of the current request; ``RequestContainerMiddleware`` registers it.
    public var currentUser: Factory<User> {
        self { User.anonymous }
    }

    /// The current request's identifier; ``RequestContainerMiddleware`` registers it.
    public var requestID: Factory<String> {
        self { "none" }
    }

    /// One session per container, hence one per request; ended when the
    /// request's container shuts down (``RequestContainerMiddleware``).
    public var session: Factory<RequestSession> {
        self { RequestSession(user: self.currentUser(), requestID: self.requestID()) }
            .cached
            .onShutdown { $0.end() }
    }

    /// A new greeter each time, built on the request's session.
    public var greeter: Factory<Greeter> {
        self { Greeter(session: self.session()) }
    }

    /// One counter for the whole process, whichever container resolves it.
    public var requestCounter: Factory<RequestCounter> {
        self { RequestCounter() }
            .singleton
    }

    /// One gauge for the whole process, whichever container resolves it.
    public var inFlight: Factory<InFlightGauge> {
        self { InFlightGauge() }
            .singleton
    }

    /// The connection pool, one for the whole process, closed when the
    /// application shuts down, after the catalog store built on it.
    public var connectionPool: Factory<ConnectionPool> {
        self { ConnectionPool() }
            .singleton
            .onShutdown { await $0.close() }
    }

    /// The catalog store, opened asynchronously once for the whole process: the
    /// first concurrent requests wait (suspended, no thread blocked) for one `open()`.
    public var catalog: AsyncFactory<CatalogStore> {
        self { try await CatalogStore.open(pool: self.connectionPool()) }
            .singleton
            .onShutdown { await $0.close() }
    }
}
