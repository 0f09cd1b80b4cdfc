import Foundation
import HummingbirdTesting
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
        try await TestClient.withClient(host: "localhost", port: port) { client in
            let catalog = try await client.get("/catalog")  // opens the pool, then the store on it
            let whoAmI = try await client.get("/whoami", headers: [.xRequestID: "child-1"])
            #expect(catalog.status == .ok)
            #expect(whoAmI.status == .ok)
        }
        kill(server.process.processIdentifier, SIGTERM)
        let status = try #require(await server.exitStatus(), "the server did not exit after SIGTERM")
        #expect(status == 0)

        let shutDown = server.output.lines.filter { $0.hasPrefix("shut down: ") }.map { $0.dropFirst(11) }
        // The request's session ended with its request; at SIGTERM, the store was
        // closed before the pool it was built on (CatalogStore.close checks it).
        #expect(shutDown == ["session child-1", "catalog store", "connection pool"])
    }
}

/// `FactoryServer --port 0` in a child process, its standard output collected.
private struct ChildServer {
    let process: Process
    let output: Output

    /// Collects a child's output on a thread of its own.
    final class Output: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var text = ""

        func append(_ data: Data) {
            lock.withLock { text += String(decoding: data, as: UTF8.self) }
        }

        var lines: [String] {
            lock.withLock { text.split(separator: "\n").map(String.init) }
        }
    }

    static func start() throws -> ChildServer {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["--port", "0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let output = Output()
        try process.run()
        Thread.detachNewThread {
            while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty { output.append(data) }
        }
        return ChildServer(process: process, output: output)
    }

    /// `FactoryServer`, built beside this test bundle (the test target depends on it).
    private static func executable() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("FactoryServer")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    /// The port from the `listening on ...:<port>` line, once printed.
    func port() async -> Int? {
        guard await eventually({ output.lines.contains { $0.hasPrefix("listening on ") } }) else { return nil }
        return output.lines.first { $0.hasPrefix("listening on ") }?.split(separator: ":").last.flatMap { Int($0) }
    }

    /// The exit status, once the process ended (within 10 seconds).
    func exitStatus() async -> Int32? {
        guard await eventually({ !process.isRunning }) else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }
}
