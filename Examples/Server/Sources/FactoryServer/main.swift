import FactoryScopes
import FactoryServiceLifecycle
import Logging
import ServerApp
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `swift run FactoryServer [--host 127.0.0.1] [--port 8080] [--wiring factory|hand] ...` (--help)
//
// With `--profile <path>`, it records every factory build from launch until its first response is ready, then
// writes them to the path as a Chrome trace (open it in ui.perfetto.dev) and prints `start-up profile: ...` and the
// profile's summary (or does so when it stops, if no request came).
// Prints `listening on <address>` once it listens, and, after a graceful
// shutdown (SIGTERM, SIGINT), one `shut down: <service>` line per entry the
// ShutdownJournal kept, in order, after a line counting those it dropped, if any;
// then `requests numbered: <n>` and `request scope: ...` (RequestLifetimes).
// A bad argument, or an address it cannot listen on, ends it with one
// `error: ...` line on standard error and status 1.

/// Ends the process with `error: <message>` on standard error and status 1.
func fail(_ message: String) -> Never {
    fflush(nil)  // what was printed before comes first
    // Not `fputs(_, stderr)`: Swift 6 rejects the C global `stderr` as shared mutable state.
    let line = Array("error: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

let options: ServerOptions
do {
    options = try ServerOptions(arguments: CommandLine.arguments.dropFirst())
} catch {
    fail(error.message)
}
if options.showsHelp {
    print(ServerOptions.usage)
    exit(0)
}
let startUpProfile = options.profilePath.map(StartUpProfile.init(path:))

let logger = Logger(label: "FactoryServer")
let shutdownService: any Service
switch options.wiring {
case .factory:
    if let drill = options.shutdownDrill {
        do {
            try await Container.shared.prepare(drill)
        } catch {
            fail("\(error)")
        }
    }
    shutdownService = ContainerShutdownService(
        Container.shared, timeout: .seconds(options.shutdownTimeout), logger: logger)
case .hand:
    shutdownService = HandShutdownService()
}

// The app-wide request counter, read after the shutdown (when the container resolves nothing more).
let counter = options.wiring == .factory ? Container.shared.requestCounter() : HandApp.shared.requestCounter

// Whether a failure happened before the server listened: only then is it about the address.
let listening = Atomic(false)
let app = buildApplication(
    host: options.host,
    port: options.port,
    wiring: options.wiring,
    services: [shutdownService],
    startUpProfile: startUpProfile,
    onListening: { address in
        listening.store(true, ordering: .relaxed)
        print("listening on \(address.map { "\($0)" } ?? "?")")
        fflush(nil)  // all streams: stdout is a pipe under the tests
    }
)
var failure: String?
do {
    try await app.runService()
} catch {
    // Uncaught, the error would stop the process with a crash report.
    failure =
        listening.load(ordering: .relaxed)
        ? "\(error)" : startupFailureMessage(error, host: options.host, port: options.port)
}
startUpProfile?.finish()
let journal = ShutdownJournal.shared
if journal.dropped > 0 {
    print("(\(journal.dropped) earlier shutdowns not kept)")
}
for service in journal.entries {
    print("shut down: \(service)")
}
// What the load run (FactoryLoad) checks: every request it had answered was numbered
// here, and every request-scoped instance made was released.
if listening.load(ordering: .relaxed) {
    print("requests numbered: \(counter.total)")
    print("request scope: \(RequestLifetimes.summary)")
}
if let failure {
    fail(failure)
}
