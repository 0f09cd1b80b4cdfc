// App types the README snippets use. They stand in for a real app's services;
// none of them knows about Factory.

protocol MyServiceType: Sendable {}
final class MyService: MyServiceType {}
final class MockService: MyServiceType {}

final class Repository: Sendable {
    let service: any MyServiceType
    init(service: any MyServiceType) { self.service = service }
    init(network: any Networking) { self.service = MyService() }
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

struct Config: Sendable {
    var databaseURL = "postgres://localhost/app"
}
protocol Database: Sendable {
    func rows(for month: String) async throws -> [String]
}
final class PostgresDatabase: Database {
    static func connect(to url: String) async throws -> PostgresDatabase { PostgresDatabase() }
    func rows(for month: String) async throws -> [String] { [] }
}
final class InMemoryDatabase: Database {
    func rows(for month: String) async throws -> [String] { [] }
}
struct Report: Sendable {
    let rows: [String]
    static func build(for month: String, from database: any Database) async throws -> Report {
        Report(rows: try await database.rows(for: month))
    }
}

final class CircularA: Sendable {
    let b: CircularB
    init(b: CircularB) { self.b = b }
}
final class CircularB: Sendable {
    let a: CircularA
    init(a: CircularA) { self.a = a }
}
