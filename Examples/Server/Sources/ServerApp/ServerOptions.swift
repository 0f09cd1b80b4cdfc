import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line of `FactoryServer`: `[--host <address>] [--port <number>]`, or `--help`.
///
/// An unknown argument, a missing value or a port that is not a number from 0
/// to 65535 is a ``UsageError`` whose message names it, rather than being
/// ignored: a server silently listening on its default port instead of the one
/// asked for is worse than one that does not start.
public struct ServerOptions: Equatable, Sendable {
    /// The one-line usage `--help` prints.
    public static let usage = "usage: FactoryServer [--host <address>] [--port <0-65535>]  (0 picks a free port)"

    /// The address to bind.
    public let host: String
    /// The port to listen on; 0 picks a free one.
    public let port: Int
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
    ///   - showsHelp: Whether to print the usage instead of serving.
    public init(host: String = "127.0.0.1", port: Int = 8080, showsHelp: Bool = false) {
        precondition((0...65535).contains(port), "port out of range")
        self.host = host
        self.port = port
        self.showsHelp = showsHelp
    }

    /// Reads the options from command-line arguments (without the program's name).
    ///
    /// Takes `--host <address>`, `--port <number>` (each also as `--name=value`,
    /// each at most once) and `--help`/`-h`.
    ///
    /// - Parameter arguments: The arguments, as `CommandLine.arguments.dropFirst()`.
    /// - Throws: A ``UsageError`` naming the first argument that is unknown,
    ///   repeated, missing its value, or (for `--port`) not a number from 0 to 65535.
    public init(arguments: some Sequence<String>) throws(UsageError) {
        var host = "127.0.0.1"
        var port = 8080
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
            guard name == "--host" || name == "--port" else {
                throw UsageError(
                    message: "unknown argument '\(argument)'; FactoryServer takes --host <address> and --port <number>")
            }
            guard seen.insert(name).inserted else {
                throw UsageError(message: "\(name) is given more than once")
            }
            guard let value = value ?? remaining.popFirst() else {
                throw UsageError(message: "\(name) needs a value")
            }
            if name == "--port" {
                guard let number = Int(value), (0...65535).contains(number) else {
                    throw UsageError(message: "--port takes a number from 0 to 65535, not '\(value)'")
                }
                port = number
            } else {
                // A forgotten value would otherwise make the next option the host.
                guard !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError(message: "--host takes an address, not '\(value)'")
                }
                host = value
            }
        }
        self.init(host: host, port: port, showsHelp: showsHelp)
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
