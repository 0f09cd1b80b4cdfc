import Foundation
import ServerApp
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the real `FactoryServer` executable, talks to it over loopback, stops it
/// with SIGTERM and reads what it shut down.
@Suite(.timeLimit(.minutes(1)))
struct ServerShutdownTests {
    @Test func sigtermShutsDownEveryServiceOnceInReverseOrderAndExitsZero() async throws {
        let server = try ChildServer.start()
        let port = try #require(await server.port())
        let client = LiveClient(port: port)
        let catalog = try await client.get("/catalog")  // opens the pool, then the store on it
        let whoAmI = try await client.get("/whoami", headers: [.xRequestID: "child-1"])
        #expect(catalog.status == .ok)
        #expect(whoAmI.status == .ok)
        kill(server.process.processIdentifier, SIGTERM)
        let status = try #require(await server.exitStatus(), "the server did not exit after SIGTERM")
        #expect(status == 0)

        let shutDown = server.output.lines.filter { $0.hasPrefix("shut down: ") }.map { $0.dropFirst(11) }
        // The request's session ended with its request; at SIGTERM, the store was
        // closed before the pool it was built on (CatalogStore.close checks it).
        #expect(shutDown == ["session child-1", "catalog store", "connection pool"])
    }
}
