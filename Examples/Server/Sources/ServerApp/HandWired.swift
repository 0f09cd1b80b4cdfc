import HTTPTypes
import Hummingbird
import ServiceLifecycle
import Synchronization

// The same server with its per-request wiring written by hand, without the
// library: `FactoryServer --wiring hand`. It builds the same services as the
// factories of `Container+Server.swift`, when they do and for as long as they
// live, and answers every request as the factory wiring does, so that a load
// run of the two (`FactoryLoad --wiring both`) measures what the container per
// request costs and nothing else:
//
// | factory (Container+Server.swift)        | by hand (here)                                   |
// |-----------------------------------------|--------------------------------------------------|
// | a `Container()` per request             | a `HandRequestScope` per request                 |
// | `Container.$shared.withValue`           | `HandRequestScope.$current.withValue`            |
// | `currentUser`, `requestID` registered   | stored properties of the scope                   |
// | `session`, `.cached`, `onShutdown`      | made on first use under a lock, ended at the end |
// | `greeter`, unique                       | `Greeter(session:)` at each use                  |
// | `requestCounter`, `inFlight` singletons | properties of `HandApp.shared`                   |
// | `connectionPool`, `catalog`, `onShutdown` | opened once by `HandApp`, closed by `HandShutdownService` |

/// The app-wide services, written by hand: one of each for the process.
public final class HandApp: Sendable {
    /// The process's services.
    public static let shared = HandApp()

    /// Counts every request.
    public let requestCounter = RequestCounter()
    /// The `/whoami` requests in flight.
    public let inFlight = InFlightGauge()
    /// The pool and the opening of the store on it, once the first `/catalog` asked.
    private let opened = Mutex<(pool: ConnectionPool, store: Task<CatalogStore, any Error>)?>(nil)

    private init() {}

    /// The catalog store: the first callers wait for one `open()`, later ones get it at once.
    public func catalog() async throws -> CatalogStore {
        let opening = opened.withLock { opened in
            if let opened { return opened.store }
            let pool = ConnectionPool()
            let store = Task { try await CatalogStore.open(pool: pool) }
            opened = (pool, store)
            return store
        }
        return try await opening.value
    }

    /// Closes the store, then the pool it was opened on, if `/catalog` opened them.
    public func shutdown() async {
        guard let (pool, store) = opened.withLock({ $0 }) else { return }
        if let store = try? await store.value {
            await store.close()
        }
        await pool.close()
    }
}

/// Closes ``HandApp``'s services when the application's group shuts down, after
/// its HTTP server: the hand-written counterpart of `ContainerShutdownService`.
public struct HandShutdownService: Service {
    /// The service.
    public init() {}

    /// Waits for the group's graceful shutdown (or its cancellation), then closes the services.
    public func run() async throws {
        try? await gracefulShutdown()
        await HandApp.shared.shutdown()
    }
}

/// One request's services, written by hand: what the request's container holds.
public final class HandRequestScope: Sendable {
    /// The scope of the request running in this task (``HandWiredMiddleware`` binds it).
    @TaskLocal public static var current: HandRequestScope?

    /// The caller.
    public let user: User
    /// The request's identifier.
    public let requestID: String
    private let madeSession = Mutex<RequestSession?>(nil)

    init(user: User, requestID: String) {
        self.user = user
        self.requestID = requestID
        RequestLifetimes.containers.made()
    }

    deinit {
        RequestLifetimes.containers.released()
    }

    /// The scope of the running request; a route reached without ``HandWiredMiddleware`` is a bug.
    static var now: HandRequestScope {
        guard let current else { preconditionFailure("no HandRequestScope: add HandWiredMiddleware before the routes") }
        return current
    }

    /// The request's session, made on first use.
    public var session: RequestSession {
        madeSession.withLock { made in
            if let made { return made }
            let session = RequestSession(user: user, requestID: requestID)
            made = session
            return session
        }
    }

    /// A new greeter on the request's session.
    public func greeter() -> Greeter {
        Greeter(session: session)
    }

    /// Ends the session, if the request made one.
    func end() {
        madeSession.withLock { $0 }?.end()
    }
}

/// Runs each request with a ``HandRequestScope`` of its own, as
/// ``RequestContainerMiddleware`` runs it with a container: the same headers
/// read, the same session ended when the request ends, the same `X-Request-ID`
/// on every response. (No `X-Trace`: there is no resolution to trace.)
public struct HandWiredMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the request with a fresh scope bound to ``HandRequestScope/current``.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let number = HandApp.shared.requestCounter.next()
        let requestID = RequestHeaders.requestID(request.headers[.xRequestID], number: number)
        let user: User
        do {
            user = try RequestHeaders.user(request.headers[.xUser])
        } catch {
            throw ErrorWithRequestID(error: error, requestID: requestID)
        }
        let scope = HandRequestScope(user: user, requestID: requestID)
        let outcome: Result<Response, any Error>
        do {
            outcome = .success(try await HandRequestScope.$current.withValue(scope) { try await next(request, context) })
        } catch {
            outcome = .failure(error)
        }
        scope.end()
        switch outcome {
        case .success(var response):
            response.headers[.xRequestID] = requestID
            return response
        case .failure(let error):
            throw ErrorWithRequestID(error: error, requestID: requestID)
        }
    }
}

/// The routes of ``buildApplication(host:port:logLevel:wiring:services:onListening:)``,
/// with their services built by hand.
func addHandWiredRoutes(to router: Router<BasicRequestContext>) {
    router.add(middleware: HandWiredMiddleware())
    router.get("whoami") { request, _ -> WhoAmI in
        let options = try WhoAmIOptions(query: request.uri.queryParameters)
        return try await handWiredWhoAmI(delay: options.delay, together: options.together)
    }
    router.get("catalog") { _, _ -> CatalogResponse in
        let store = try await HandApp.shared.catalog()
        return CatalogResponse(items: store.items, storeTag: store.instanceTag, storesOpened: CatalogStore.opened)
    }
    router.get("fail") { _, _ -> HTTPResponse.Status in
        _ = HandRequestScope.now.session
        throw HTTPError(.internalServerError, message: "failed on purpose")
    }
    router.get("stats") { _, _ -> Stats in
        let counter = HandApp.shared.requestCounter
        let gauge = HandApp.shared.inFlight
        return Stats(
            requests: counter.total,
            inFlight: gauge.current,
            peakInFlight: gauge.peak,
            counterTag: counter.instanceTag
        )
    }
}

/// `whoAmI(delay:together:)`, with the services built by hand.
private func handWiredWhoAmI(delay: Int, together: Int) async throws -> WhoAmI {
    let session = HandRequestScope.now.session
    let counter = HandApp.shared.requestCounter
    let gauge = HandApp.shared.inFlight

    let ticket = gauge.enter()
    defer { gauge.leave(ticket) }
    _ = try await gauge.wait(ticket, forAtLeast: together, timeout: .seconds(2))
    if delay > 0 {
        try await Task.sleep(for: .milliseconds(delay))
    }

    let sessionAfterAwait = HandRequestScope.now.session
    let greeting = HandRequestScope.now.greeter().greet()
    let inFlightAtOnce = gauge.mostAtOnce(since: ticket)
    return WhoAmI(
        user: session.user.id,
        requestID: session.requestID,
        session: session.serial,
        sessionAfterAwait: sessionAfterAwait.serial,
        greeting: greeting,
        overlapped: inFlightAtOnce > 1,
        inFlightAtOnce: inFlightAtOnce,
        requestsServed: counter.total,
        counterTag: counter.instanceTag
    )
}
