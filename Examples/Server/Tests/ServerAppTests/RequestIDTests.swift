import Hummingbird
import ServerApp
import Testing

extension LiveServerTests {
    /// Every response carries the request's `X-Request-ID`, an error's too: it is
    /// what a client quotes to find the request in the server's logs.
    @Suite struct RequestIDTests {
        @Test func errorResponsesCarryTheRequestID() async throws {
            try await withLiveServer(logLevel: .critical) { client in
                let failed = try await client.execute(uri: "/fail", method: .get, headers: [.xRequestID: "fail-id"])
                #expect(failed.status == .internalServerError)
                #expect(failed.headers[.xRequestID] == "fail-id")

                let rejected = try await client.execute(uri: "/whoami?delay=abc", method: .get)
                #expect(rejected.status == .badRequest)
                #expect(rejected.headers[.xRequestID]?.hasPrefix("req-") == true)
                // Still Hummingbird's answer to the error.
                #expect(String(buffer: rejected.body).contains("delay must be a whole number"))

                let missing = try await client.execute(uri: "/nowhere", method: .get, headers: [.xRequestID: "lost-id"])
                #expect(missing.status == .notFound)
                #expect(missing.headers[.xRequestID] == "lost-id")
            }
        }

        /// A handler's own error, which Hummingbird cannot turn into a response, is a 500 with the header.
        @Test func anyErrorAHandlerThrowsIsA500WithTheRequestID() async throws {
            struct Unexpected: Error {}
            let router = Router()
            router.add(middleware: RequestContainerMiddleware())
            router.get("throws") { _, _ -> HTTPResponse.Status in throw Unexpected() }
            try await withLiveServer(router: router) { client in
                let response = try await client.execute(uri: "/throws", method: .get, headers: [.xRequestID: "odd-id"])
                #expect(response.status == .internalServerError)
                #expect(response.headers[.xRequestID] == "odd-id")
            }
        }
    }
}
