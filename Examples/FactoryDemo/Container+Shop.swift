import FactoryWrappers

extension Scope {
    /// A custom scope: a cache of its own, emptied at logout with
    /// `manager.reset(scope: .session)`.
    static let session = Cached()
}

extension Container {
    var baseURL: Factory<String> {
        self { "https://api.example.com" }
    }

    var network: Factory<NetworkClient> {
        self { NetworkClient(baseURL: self.baseURL()) }.singleton
    }

    var imageCache: Factory<ImageCache> {
        self { ImageCache() }.cached
    }

    var session: Factory<UserSession> {
        self { UserSession(user: "ada") }.scope(.session)
    }

    var document: Factory<Document> {
        self { Document() }.shared
    }

    var requestContext: Factory<RequestContext> {
        self { RequestContext() }.graph
    }

    var orderService: Factory<OrderService> {
        self { OrderService(context: self.requestContext(), network: self.network()) }
    }

    var auditLog: Factory<AuditLog> {
        self { AuditLog(context: self.requestContext()) }
    }

    var checkout: Factory<Checkout> {
        self { Checkout(orders: self.orderService(), audit: self.auditLog()) }
    }

    /// A new greeter per resolution.
    var greeter: ParameterFactory<String, Greeter> {
        self { Greeter(name: $0) }
    }

    /// One cached greeter per distinct name.
    var cachedGreeter: ParameterFactory<String, Greeter> {
        self { Greeter(name: $0) }.cached.scopeOnParameters
    }

    var analytics: Factory<any Analytics> {
        self { LiveAnalytics() }
    }

    var mailer: Factory<Mailer> {
        self { Mailer(sender: "shop@example.com") }
            .cached
            .decorator { mailer, isNew in
                print("    decorator: \(isNew ? "built" : "reused") Mailer(sender: \(mailer.sender))")
            }
    }
}

/// A custom container for the reporting feature. It has its own registrations
/// and caches, and reaches into `Container.shared` for what it shares.
final class ReportingContainer: SharedContainer {
    static let shared = ReportingContainer()
    let manager = ContainerManager()
}

extension ReportingContainer {
    var reports: Factory<ReportService> {
        self { ReportService(network: Container.shared.network()) }.cached
    }
}
