// App types the README snippets use. They stand in for a real app's services;
// none of them knows about Factory.

protocol MyServiceType: Sendable {}
final class MyService: MyServiceType {}
final class MockService: MyServiceType {}

final class Repository: Sendable {
    let service: any MyServiceType
    init(service: any MyServiceType) { self.service = service }
}

protocol Networking: Sendable {}
final class NetworkClient: Networking {}

final class ImageCache: Sendable {}
final class Editor: Sendable {}
final class Feed: Sendable {}
final class UserSession: Sendable {}

protocol IDProviding: Sendable {}
protocol ValueProviding: Sendable {}
final class CommonProvider: IDProviding, ValueProviding {}
final class ProtocolConsumer: Sendable {
    let ids: any IDProviding
    let values: any ValueProviding
    init(ids: any IDProviding, values: any ValueProviding) {
        self.ids = ids
        self.values = values
    }
}

final class Greeter: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
struct Pair: Sendable {
    let a: Int
    let b: Int
}
final class Avatar: Sendable {
    let user: String
    init(user: String) { self.user = user }
}

struct User: Sendable {}

protocol Analytics: Sendable {}
struct LiveAnalytics: Analytics {}
struct NoAnalytics: Analytics {}
struct ConsoleAnalytics: Analytics {}

final class Session: Sendable {
    func start() {}
}

struct Account: Sendable {
    let id: Int
}
enum Network {
    static func get(_ path: String) async throws -> [Account] { [] }
}

final class OrderService: Sendable {
    let network: any Networking
    init(network: any Networking) { self.network = network }
}
