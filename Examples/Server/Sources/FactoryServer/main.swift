import FactoryScopes
import FactoryServiceLifecycle
import Logging
import ServerApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `swift run FactoryServer [--host 127.0.0.1] [--port 8080]`
///
/// Prints `listening on <address>` once it listens, and, after a graceful
/// shutdown (SIGTERM, SIGINT), one `shut down: <service>` line per service shut
/// down, in order.
func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), arguments.indices.contains(index + 1) else {
        return nil
    }
    return arguments[index + 1]
}

let host = option("--host") ?? "127.0.0.1"
let port = option("--port").flatMap { Int($0) } ?? 8080
let app = buildApplication(
    host: host,
    port: port,
    services: [ContainerShutdownService(Container.shared, logger: Logger(label: "FactoryServer"))],
    onListening: { address in
        print("listening on \(address)")
        fflush(nil)  // all streams: stdout is a pipe under the tests
    }
)
try await app.runService()
for service in ShutdownJournal.shared.entries {
    print("shut down: \(service)")
}
