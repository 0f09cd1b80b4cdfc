import Foundation
import Hummingbird
import ServerApp
import Testing

extension LiveServerTests {
    /// A path the server serves, asked with another method, is `405` with the methods
    /// it takes in `Allow`; a path it does not serve stays `404`.
    @Suite struct MethodNotAllowedTests {
        @Test func anotherMethodOnAServedPathIs405WithAllow() async throws {
            try await withLiveServer(logLevel: .critical) { client in
                let posted = try await client.execute(uri: "/whoami", method: .post, headers: [.xRequestID: "post-id"])
                #expect(posted.status == .methodNotAllowed)
                #expect(posted.headers[.allow] == "GET, HEAD")
                #expect(posted.headers[.xRequestID] == "post-id")
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(posted.body.readableBytesView))
                #expect(body.error.message == "POST is not allowed on /whoami; it takes GET, HEAD")

                for path in ["/stats", "/catalog", "/fail", "/whoami/"] {
                    let deleted = try await client.execute(uri: path, method: .delete)
                    #expect(deleted.status == .methodNotAllowed, "DELETE \(path)")
                    #expect(deleted.headers[.allow] == "GET, HEAD", "DELETE \(path)")
                }
            }
        }

        @Test func headIsAnsweredAndUnknownPathsStay404() async throws {
            try await withLiveServer(logLevel: .critical) { client in
                let head = try await client.execute(uri: "/stats", method: .head)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)

                let missing = try await client.execute(uri: "/nowhere", method: .post)
                #expect(missing.status == .notFound)
                #expect(missing.headers[.allow] == nil)
            }
        }

        /// The middleware reads the methods from the routes it is given, so a route
        /// added with another method is in `Allow` without a list kept by hand.
        @Test func allowListsEveryMethodOfThePath() async throws {
            let router = Router()
            router.get("item") { _, _ -> HTTPResponse.Status in .ok }
            router.put("item") { _, _ -> HTTPResponse.Status in .ok }
            router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes, headForGet: false))
            try await withLiveServer(router: router) { client in
                let put = try await client.execute(uri: "/item", method: .put)
                #expect(put.status == .ok)
                let posted = try await client.execute(uri: "/item", method: .post)
                #expect(posted.status == .methodNotAllowed)
                #expect(posted.headers[.allow] == "GET, PUT")
            }
        }
    }
}

/// Hummingbird's body for an `HTTPError` with a message.
private struct ErrorBody: Decodable {
    struct Details: Decodable {
        let message: String
    }
    let error: Details
}
