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
        #expect(
            server.output.lines.suffix(2) == [
                "requests numbered: 2",
                "request scope: containers made 2, released 2; sessions made 1, released 1; greeters made 1, released 1",
            ])
    }

    /// `--shutdown-drill throw`: a service whose `onShutdown` throws, shut down between
    /// the store and the pool. The others still run, in order; the server names the
    /// failure and exits 1.
    @Test func aShutdownHandlerThatThrowsLetsTheOthersRunAndTheServerExits1() async throws {
        let server = try ChildServer.start(["--port", "0", "--shutdown-drill", "throw"])
        let port = try #require(await server.port())
        #expect(try await LiveClient(port: port).get("/catalog").status == .ok)
        kill(server.process.processIdentifier, SIGTERM)
        let status = try #require(await server.exitStatus(), "the server did not exit after SIGTERM")
        #expect(status == 1)
        #expect(shutDownLines(server) == ["catalog store", "drill: throw starts", "connection pool"])
        #expect(
            server.errors.lines.suffix(2) == [
                "error: FactoryCore: 1 instance(s) did not shut down cleanly",
                "  Container.shutdownDrill<ShutdownDrillService>: the drill's shutdown failed on purpose",
            ])
    }

    /// `--shutdown-drill hang`: a service whose `onShutdown` never returns, shut down
    /// between the store and the pool. Its timeout (1 s here) fires, the server names
    /// the service, the pool after it still closes, and the server exits 1.
    @Test func aShutdownHandlerThatHangsTimesOutTheOthersRunAndTheServerExits1() async throws {
        let server = try ChildServer.start(["--port", "0", "--shutdown-drill", "hang", "--shutdown-timeout", "1"])
        let port = try #require(await server.port())
        #expect(try await LiveClient(port: port).get("/catalog").status == .ok)
        kill(server.process.processIdentifier, SIGTERM)
        let status = try #require(await server.exitStatus(), "the server did not exit after SIGTERM")
        #expect(status == 1)
        #expect(shutDownLines(server) == ["catalog store", "drill: hang starts", "connection pool"])
        #expect(
            server.errors.lines.suffix(2) == [
                "error: FactoryCore: 1 instance(s) did not shut down cleanly",
                "  Container.shutdownDrill<ShutdownDrillService>: shutdown did not finish before the timeout",
            ])
    }

    private func shutDownLines(_ server: ChildServer) -> [String] {
        server.output.lines.filter { $0.hasPrefix("shut down: ") }.map { String($0.dropFirst(11)) }
    }
}
