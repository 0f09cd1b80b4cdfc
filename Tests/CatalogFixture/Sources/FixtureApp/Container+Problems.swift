import FactoryScopes

// One factory of each kind of finding.
extension Container {
    // A cycle: each builds the other.
    var cycleA: Factory<CycleA> {
        self { CycleA(b: self.cycleB()) }
    }

    var cycleB: Factory<CycleB> {
        self { CycleB(a: self.cycleA()) }
    }

    // A captive dependency: a singleton keeps the container's cached session.
    var session: Factory<Session> {
        self { Session() }.cached
    }

    var auditLog: Factory<AuditLog> {
        self { AuditLog(session: self.session()) }.singleton
    }

    // A promise nothing registers.
    var analytics: Factory<(any Analytics)?> {
        promised()
    }

    var tracker: Factory<Tracker> {
        self { Tracker(analytics: self.analytics()) }
    }

    // An async factory that throws, and one that awaits it.
    var database: AsyncFactory<Database> {
        self { try await Database.connect(host: "db.internal") }.singleton
    }

    var repository: AsyncFactory<Repository> {
        self { Repository(database: try await self.database()) }
    }

    // Private factories: a test target cannot reach them; `signer` resolves them.
    private var secretKey: Factory<String> {
        self { "key" }
    }

    fileprivate var salt: Factory<String> {
        self { "salt" }
    }

    var signer: Factory<Signer> {
        self { Signer(key: self.secretKey(), salt: self.salt()) }
    }
}
