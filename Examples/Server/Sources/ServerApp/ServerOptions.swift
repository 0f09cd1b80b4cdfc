import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line of `FactoryServer`: `[--host <address>] [--port <number>]
/// [--wiring factory|hand] [--shutdown-timeout <seconds>] [--shutdown-drill hang|throw] [--profile <path>]`, or `--help`.
///
/// An unknown argument, a missing value or a port that is not a number from 0
/// to 65535 is a ``UsageError`` whose message names it, rather than being
/// ignored: a server silently listening on its default port instead of the one
/// asked for is worse than one that does not start.
public struct ServerOptions: Equatable, Sendable {
    /// The usage `--help` prints.
    public static let usage = """
        usage: FactoryServer [--host <address>] [--port <0-65535>]  (0 picks a free port)
                             [--wiring factory|hand]  (hand: the same server without the library, for load runs)
                             [--shutdown-timeout <seconds>]  (each service's onShutdown at SIGTERM; default 30)
                             [--shutdown-drill hang|throw]  (adds a service whose shutdown hangs or throws)
                             [--profile <path>]  (the builds from launch to the first response, as a Chrome trace)
        """

    /// A service whose shutdown misbehaves on purpose, to show what the server does then.
    public enum ShutdownDrill: String, CaseIterable, Equatable, Sendable {
        /// Its `onShutdown` never returns: the shutdown's timeout fires.
        case hang
        /// Its `onShutdown` throws.
        case `throw`
    }

    /// The address to bind.
    public let host: String
    /// The port to listen on; 0 picks a free one.
    public let port: Int
    /// How requests get their services.
    public let wiring: Wiring
    /// How long the `onShutdown` closures may take together, in seconds.
    public let shutdownTimeout: Int
    /// A service whose shutdown misbehaves, if any.
    public let shutdownDrill: ShutdownDrill?
    /// Where to write the start-up's profile (``StartUpProfile``), if anywhere.
    public let profilePath: String?
    /// Whether `--help` (or `-h`) was given: print ``usage`` instead of serving.
    public let showsHelp: Bool

    /// A command line that names a problem with the arguments.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, in one line, naming the argument.
        public let message: String

        /// ``message``.
        public var description: String { message }
    }

    /// Options with the given values.
    ///
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port, 0 through 65535.
    ///   - wiring: How requests get their services.
    ///   - shutdownTimeout: Seconds the `onShutdown` closures may take together, at least 1.
    ///   - shutdownDrill: A service whose shutdown misbehaves, if any.
    ///   - profilePath: Where to write the start-up's profile, if anywhere.
    ///   - showsHelp: Whether to print the usage instead of serving.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, wiring: Wiring = .factory, shutdownTimeout: Int = 30,
        shutdownDrill: ShutdownDrill? = nil, profilePath: String? = nil, showsHelp: Bool = false
    ) {
        precondition((0...65535).contains(port), "port out of range")
        precondition(shutdownTimeout >= 1, "shutdown timeout out of range")
        self.host = host
        self.port = port
        self.wiring = wiring
        self.shutdownTimeout = shutdownTimeout
        self.shutdownDrill = shutdownDrill
        self.profilePath = profilePath
        self.showsHelp = showsHelp
    }

    private static let names = ["--host", "--port", "--wiring", "--shutdown-timeout", "--shutdown-drill", "--profile"]

    /// Reads the options from command-line arguments (without the program's name).
    ///
    /// Takes `--host <address>`, `--port <number>`, `--wiring <factory|hand>`,
    /// `--shutdown-timeout <seconds>`, `--shutdown-drill <hang|throw>`, `--profile <path>` (each also as
    /// `--name=value`, each at most once) and `--help`/`-h`.
    ///
    /// - Parameter arguments: The arguments, as `CommandLine.arguments.dropFirst()`.
    /// - Throws: A ``UsageError`` naming the first argument that is unknown,
    ///   repeated, missing its value, or with a value it does not take.
    public init(arguments: some Sequence<String>) throws(UsageError) {
        var host = "127.0.0.1"
        var port = 8080
        var wiring = Wiring.factory
        var shutdownTimeout = 30
        var shutdownDrill: ShutdownDrill?
        var profilePath: String?
        var showsHelp = false
        var seen: Set<String> = []
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" {
                showsHelp = true
                continue
            }
            let name: String
            let value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                value = nil
            }
            guard Self.names.contains(name) else {
                throw UsageError(
                    message:
                        "unknown argument '\(argument)'; FactoryServer takes --host <address>, --port <number>, --wiring, --shutdown-timeout, --shutdown-drill and --profile (see --help)"
                )
            }
            guard seen.insert(name).inserted else {
                throw UsageError(message: "\(name) is given more than once")
            }
            guard let value = value ?? remaining.popFirst() else {
                throw UsageError(message: "\(name) needs a value")
            }
            switch name {
            case "--port":
                guard let number = Int(value), (0...65535).contains(number) else {
                    throw UsageError(message: "--port takes a number from 0 to 65535, not '\(value)'")
                }
                port = number
            case "--wiring":
                guard let chosen = Wiring(rawValue: value) else {
                    throw UsageError(message: "--wiring takes factory or hand, not '\(value)'")
                }
                wiring = chosen
            case "--shutdown-timeout":
                guard let seconds = Int(value), (1...3600).contains(seconds) else {
                    throw UsageError(message: "--shutdown-timeout takes a number of seconds from 1 to 3600, not '\(value)'")
                }
                shutdownTimeout = seconds
            case "--shutdown-drill":
                guard let drill = ShutdownDrill(rawValue: value) else {
                    throw UsageError(message: "--shutdown-drill takes hang or throw, not '\(value)'")
                }
                shutdownDrill = drill
            case "--profile":
                guard !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError(message: "--profile takes a file path, not '\(value)'")
                }
                profilePath = value
            default:
                // A forgotten value would otherwise make the next option the host.
                guard !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError(message: "--host takes an address, not '\(value)'")
                }
                host = value
            }
        }
        self.init(
            host: host, port: port, wiring: wiring, shutdownTimeout: shutdownTimeout, shutdownDrill: shutdownDrill,
            profilePath: profilePath, showsHelp: showsHelp)
    }
}

/// The one-line message for an error that stopped the server before it listened.
///
/// A port in use (`EADDRINUSE`) is named as such; any other socket error is
/// reported with the system's wording for its `errno` (rather than NIO's
/// description, which names the internal call that failed).
///
/// - Parameters:
///   - error: What `runService()` threw.
///   - host: The address the server tried to bind.
///   - port: The port it tried to bind.
/// - Returns: The message, without an `error: ` prefix.
public func startupFailureMessage(_ error: any Error, host: String, port: Int) -> String {
    guard let error = error as? IOError else {
        return "cannot listen on \(host):\(port): \(error)"
    }
    if error.errnoCode == EADDRINUSE {
        return "port \(port) is already in use"
    }
    return "cannot listen on \(host):\(port): \(String(cString: strerror(error.errnoCode)))"
}
