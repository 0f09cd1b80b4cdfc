// App types the snippets of the README and of the DocC articles use. They stand in
// for a real app's services; none of them knows about Factory.

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

struct User: Sendable {
    var id = "anonymous"
    static let anonymous = User()
}

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

// Getting Started
protocol PaymentProcessing: Sendable {}
final class CardProcessor: PaymentProcessing {
    init(network: any Networking) {}
}

// Scopes
final class ExchangeRates: Sendable {
    static func fetch() -> ExchangeRates { ExchangeRates() }
}
final class ProfileImageCache: Sendable {}

// Async Factories
final class CatalogStore: Sendable {
    let items = ["kettle", "teapot", "cups"]
    static func open() async throws -> CatalogStore { CatalogStore() }
}

// Server Apps: a server framework's request and response, in outline.
struct Request: Sendable {
    var headers: [String: String] = [:]
}
struct Response: Sendable {
    var body = ""
}
final class RequestSession: Sendable {
    let user: User
    init(user: User) { self.user = user }
    func end() {}
}
final class RequestCounter: Sendable {}

// Writing Tests
struct Post: Sendable {}
protocol APIClient: Sendable {
    func posts() throws -> [Post]
}
final class LiveAPIClient: APIClient {
    func posts() throws -> [Post] { [] }
}
final class MockAPIClient: APIClient {
    func posts() throws -> [Post] { [Post()] }
}
enum APIFailure: Error, Sendable {
    case offline
}
final class StubAPIClient: APIClient {
    private let result: Result<[Post], APIFailure>
    init(posts: Int) { result = .success(Array(repeating: Post(), count: posts)) }
    init(failing failure: APIFailure) { result = .failure(failure) }
    func posts() throws -> [Post] { try result.get() }
}
protocol AppClock: Sendable {
    var hour: Int { get }
}
struct SystemClock: AppClock {
    var hour: Int { 9 }
}
enum TimeOfDay: Sendable {
    case noon
}
struct FixedClock: AppClock {
    let hour: Int
    init(_ time: TimeOfDay) { hour = 12 }
}
protocol Logger: Sendable {}
struct PrintLogger: Logger {}
struct SilentLogger: Logger {}
final class FeedModel: Sendable {
    let api: any APIClient
    let clock: any AppClock
    init(api: any APIClient, clock: any AppClock) {
        self.api = api
        self.clock = clock
    }
    func load() -> [Post] { (try? api.posts()) ?? [] }
    func loadOrThrow() throws -> [Post] { try api.posts() }
    var title: String { clock.hour < 12 ? "Good morning" : "Good afternoon" }
}
protocol Checkout: Sendable {
    func pay() -> Bool
}
struct LiveCheckout: Checkout {
    func pay() -> Bool { false }
}
struct MockCheckout: Checkout {
    func pay() -> Bool { true }
}
final class Holder: Sendable {
    init(_ parts: any Sendable...) {}
}
final class Box: Sendable {}
