// The services of a small shop app. Each is a final class so the demo can
// tell instances apart by identity; none of them knows about Factory.

/// Talks to the backend. One per process: `.singleton`.
final class NetworkClient: Sendable {
    let baseURL: String
    init(baseURL: String) { self.baseURL = baseURL }
}

/// Per-container image cache: `.cached`.
final class ImageCache: Sendable {}

/// The signed-in user; lives until logout: the custom `.session` scope.
final class UserSession: Sendable {
    let user: String
    init(user: String) { self.user = user }
}

/// An open document; lives while a screen holds it: `.shared` (weak).
final class Document: Sendable {}

/// State of one checkout; everything inside one resolution shares it: `.graph`.
final class RequestContext: Sendable {}

final class OrderService: Sendable {
    let context: RequestContext
    let network: NetworkClient
    init(context: RequestContext, network: NetworkClient) {
        self.context = context
        self.network = network
    }
}

final class AuditLog: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}

final class Checkout: Sendable {
    let orders: OrderService
    let audit: AuditLog
    init(orders: OrderService, audit: AuditLog) {
        self.orders = orders
        self.audit = audit
    }
}

/// Built from a parameter (`ParameterFactory`).
final class Greeter: Sendable {
    let name: String
    init(name: String) { self.name = name }
    var greeting: String { "Hello, \(name)!" }
}

protocol Analytics: Sendable {
    var name: String { get }
}

struct LiveAnalytics: Analytics {
    let name = "LiveAnalytics"
}

struct ConsoleAnalytics: Analytics {
    let name = "ConsoleAnalytics (onDebug)"
}

struct OfflineAnalytics: Analytics {
    let name = "OfflineAnalytics (onArg --offline)"
}

/// Configured by a decorator when it is built.
final class Mailer: Sendable {
    let sender: String
    init(sender: String) { self.sender = sender }
}

/// A reporting service registered in its own container.
final class ReportService: Sendable {
    let network: NetworkClient
    init(network: NetworkClient) { self.network = network }
}
