import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServerApp
import ServiceLifecycle

// The real server on a loopback port, and a small HTTP/1.1 client for it, on the
// SwiftNIO modules the server is built on. (HummingbirdTesting's live client does
// the same, but brings AsyncHTTPClient, BoringSSL, HTTP/2 and swift-configuration
// into the build, which took this example's test build from about 30 s to 3 min.)

/// Runs the example's application (`buildApplication`) on a free loopback port while
/// `body` runs, then shuts it down gracefully.
func withLiveServer(
    logLevel: Logger.Level = .warning,
    wiring: Wiring = .factory,
    _ body: (LiveClient) async throws -> Void
) async throws {
    try await withLiveServer({ buildApplication(port: 0, logLevel: logLevel, wiring: wiring, onListening: $0) }, body)
}

/// Runs an application of `router` on a free loopback port while `body` runs.
func withLiveServer(
    router: Router<BasicRequestContext>,
    _ body: (LiveClient) async throws -> Void
) async throws {
    try await withLiveServer(
        { onListening in
            Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onListening($0.localAddress) }
            )
        },
        body
    )
}

/// Runs the application `makeApplication` returns, which must call the closure it is
/// given with the address it listens on, while `body` runs; then stops it.
///
/// - Throws: What `body` throws; `ServerDidNotStart` if the application stopped
///   before it listened (its own error follows from the service group).
private func withLiveServer<App: ApplicationProtocol>(
    _ makeApplication: (_ onListening: @escaping @Sendable (SocketAddress?) async -> Void) -> App,
    _ body: (LiveClient) async throws -> Void
) async throws {
    let (ports, listened) = AsyncStream.makeStream(of: Int?.self)
    let app = makeApplication { address in
        listened.yield(address?.port)
        listened.finish()
    }
    let services = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "LiveServer")))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { listened.finish() }
            try await services.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() ?? nil else {
            try await tasks.waitForAll()
            throw ServerDidNotStart()
        }
        do {
            try await body(LiveClient(port: port))
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
        await services.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}

/// The application stopped before it listened.
struct ServerDidNotStart: Error {}

/// A response, as the tests read it.
struct LiveResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// An HTTP/1.1 client for a server on loopback. Each request has a connection of its
/// own (`Connection: close`), so requests made at the same time really run side by side.
struct LiveClient: Sendable {
    /// The server's port.
    let port: Int

    /// The response to a request that ended before its response did.
    struct IncompleteResponse: Error {}

    /// `GET uri`.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> LiveResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// Sends a request without a body and returns the whole response.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:]) async throws -> LiveResponse {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
            head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
            head.headers.add(name: "Connection", value: "close")
            for field in headers {
                head.headers.add(name: field.name.rawName, value: field.value)
            }
            try await outbound.write(.head(head))
            try await outbound.write(.end(nil))

            var response: HTTPResponseHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let received):
                    response = received
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let response else { throw IncompleteResponse() }
                    var fields = HTTPFields()
                    for (name, value) in response.headers {
                        if let name = HTTPField.Name(name) {
                            fields.append(HTTPField(name: name, value: value))
                        }
                    }
                    return LiveResponse(status: .init(code: Int(response.status.code)), headers: fields, body: body)
                }
            }
            throw IncompleteResponse()
        }
    }
}
