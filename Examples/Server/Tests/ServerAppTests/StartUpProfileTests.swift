import Foundation
import ServerApp
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FactoryServer --profile <path>`: the builds from launch to the first response, written as a Chrome trace.
@Suite(.timeLimit(.minutes(1)))
struct StartUpProfileTests {
    @Test func theFirstResponseWritesWhatTheStartUpBuilt() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "startup-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ChildServer.start(["--port", "0", "--profile", path])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let port = try #require(await server.port())
        let catalog = try await LiveClient(port: port).get("/catalog")  // opens the pool, then the store
        #expect(catalog.status == .ok)
        #expect(await eventually { server.output.lines.contains { $0.hasPrefix("start-up profile: ") } })
        #expect(
            server.output.lines.contains(
                "start-up profile: \(try builds(in: path).count) builds, Chrome trace written to \(path)"))

        let names = try builds(in: path).compactMap { $0["name"] as? String }
        // Launch: the app-wide counter. The first request: its container's counter hit, and the catalog store opened
        // on the connection pool (an async singleton's build, the pool's inside it).
        #expect(names.contains("Container.requestCounter<RequestCounter>"))
        #expect(names.contains("Container.catalog<CatalogStore>"))
        #expect(names.contains("Container.connectionPool<ConnectionPool>"))
        // The summary, slowest first: the store's open sleeps 100 ms.
        let summary = server.output.lines.drop { !$0.hasPrefix("count ") }.dropFirst()
        #expect(summary.first?.hasSuffix("Container.catalog<CatalogStore>") == true)
    }

    /// The trace's complete events (`"ph":"X"`), each with the fields the trace-event format requires.
    private func builds(in path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "build" }
        for slice in slices {
            #expect(slice["ts"] is Double && slice["dur"] is Double && slice["pid"] is Int && slice["tid"] is Int)
        }
        return slices
    }
}
