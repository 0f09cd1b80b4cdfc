import FactoryScopes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the example server.
///
/// Routes:
/// - `GET /whoami[?delay=ms][&together=n]`: what the request-scoped services
///   saw. `together` (at most 8) makes the handler wait, at most two seconds,
///   until that many `/whoami` requests have run at once; `delay` (ms, at most
///   2000) makes it sleep after that; then it resolves again. Any other
///   parameter, or a value that is not a whole number in range, is answered
///   with `400 Bad Request` and a message naming it (``WhoAmIOptions``).
/// - `GET /stats`: the app-wide counters.
/// - `GET /catalog`: the items of the catalog store, an async singleton opened
///   once, on first use, whatever the number of concurrent first requests.
/// - `GET /fail`: resolves the request's session, then fails with `500`: the
///   session is shut down all the same.
///
/// Each route also answers `HEAD`. Another method on one of these paths is
/// answered `405 Method Not Allowed` with an `Allow` header
/// (``MethodNotAllowedMiddleware``); any other path, `404 Not Found`.
///
/// - Parameters:
///   - host: The address to bind; keep it on loopback for a demo.
///   - port: The port; 0 picks a free one.
///   - logLevel: The server's log level.
///   - wiring: How each request gets its services: from its own container
///     (``Wiring/factory``, the example), or built by hand (``Wiring/hand``, the
///     same server without the library, for the load run's comparison).
///   - services: More services for the application's group; its HTTP server
///     shuts down before them (`FactoryServer` passes a `ContainerShutdownService`,
///     or with ``Wiring/hand`` a ``HandShutdownService``).
///   - startUpProfile: A recording of the start-up, finished once the first response is ready (`--profile`).
///   - onListening: Called once the server listens, with the address it bound
///     (its `port` is the one picked for port 0).
/// - Returns: The application, ready to `runService()`.
public func buildApplication(
    host: String = "127.0.0.1",
    port: Int = 8080,
    logLevel: Logger.Level = .info,
    wiring: Wiring = .factory,
    services: [any Service] = [],
    startUpProfile: StartUpProfile? = nil,
    onListening: @escaping @Sendable (_ address: SocketAddress?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    var logger = Logger(label: "FactoryServer")
    logger.logLevel = logLevel

    let router = Router(options: .autoGenerateHeadEndpoints)
    // First: the first request's own container and what it builds are part of the start-up.
    if let startUpProfile { router.add(middleware: StartUpProfileMiddleware(profile: startUpProfile)) }
    switch wiring {
    case .factory:
        addRoutes(to: router)
    case .hand:
        addHandWiredRoutes(to: router)
    }
    // After the routes: it runs only for requests that no route matched.
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes, headForGet: true))

    return Application(
        router: router,
        configuration: .init(address: .hostname(host, port: port), serverName: "FactoryServer"),
        services: services,
        onServerRunning: { channel in await onListening(channel.localAddress) },
        logger: logger
    )
}

/// How each request of the server gets its services.
public enum Wiring: String, CaseIterable, Sendable {
    /// From a container of its own (``RequestContainerMiddleware``): the example.
    case factory
    /// Built by hand, without the library (``HandWiredMiddleware``): the same
    /// services, lifetimes and answers, for the load run to compare.
    case hand
}

/// The routes, resolving their services from the request's container.
private func addRoutes(to router: Router<BasicRequestContext>) {
    router.add(middleware: RequestContainerMiddleware())
    router.get("whoami") { request, _ -> WhoAmI in
        let options = try WhoAmIOptions(query: request.uri.queryParameters)
        return try await whoAmI(delay: options.delay, together: options.together)
    }
    router.get("catalog") { _, _ -> CatalogResponse in
        let store = try await Container.shared.catalog()
        return CatalogResponse(items: store.items, storeTag: store.instanceTag, storesOpened: CatalogStore.opened)
    }
    router.get("fail") { _, _ -> HTTPResponse.Status in
        _ = Container.shared.session()
        throw HTTPError(.internalServerError, message: "failed on purpose")
    }
    router.get("stats") { _, _ -> Stats in
        let counter = Container.shared.requestCounter()
        let gauge = Container.shared.inFlight()
        return Stats(
            requests: counter.total,
            inFlight: gauge.current,
            peakInFlight: gauge.peak,
            counterTag: counter.instanceTag
        )
    }
}

/// The `/whoami` handler. It resolves everything from `Container.shared`,
/// which ``RequestContainerMiddleware`` bound to this request's container.
func whoAmI(delay: Int, together: Int) async throws -> WhoAmI {
    let session = Container.shared.session()
    let counter = Container.shared.requestCounter()
    let gauge = Container.shared.inFlight()

    let ticket = gauge.enter()
    defer { gauge.leave(ticket) }
    // Whether `together` was reached is in `inFlightAtOnce`, read below.
    _ = try await gauge.wait(ticket, forAtLeast: together, timeout: .seconds(2))
    if delay > 0 {
        try await Task.sleep(for: .milliseconds(delay))
    }

    // After the awaits, possibly on another thread and while other requests
    // ran: the task-local still names this request's container.
    let sessionAfterAwait = Container.shared.session()
    let greeting = Container.shared.greeter().greet()
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
