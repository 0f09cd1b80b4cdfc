import Foundation
import NIOCore
import ServerApp
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let takes =
    "FactoryServer takes --host <address>, --port <number>, --wiring, --shutdown-timeout, --shutdown-drill and --profile (see --help)"

/// What `FactoryServer` makes of its arguments.
@Suite struct ServerOptionsTests {
    @Test func readsTheHostAndPort() throws {
        #expect(try ServerOptions(arguments: []) == ServerOptions(host: "127.0.0.1", port: 8080))
        #expect(try ServerOptions(arguments: ["--port", "9000"]) == ServerOptions(port: 9000))
        #expect(try ServerOptions(arguments: ["--port=0", "--host", "::1"]) == ServerOptions(host: "::1", port: 0))
        #expect(try ServerOptions(arguments: ["--help"]).showsHelp)
        #expect(
            try ServerOptions(arguments: ["--wiring", "hand", "--shutdown-timeout=5", "--shutdown-drill", "hang"])
                == ServerOptions(wiring: .hand, shutdownTimeout: 5, shutdownDrill: .hang))
        #expect(try ServerOptions(arguments: ["--profile", "startup.json"]) == ServerOptions(profilePath: "startup.json"))
    }

    @Test(arguments: [
        (["--port", "abc"], "--port takes a number from 0 to 65535, not 'abc'"),
        (["--port", "65536"], "--port takes a number from 0 to 65535, not '65536'"),
        (["--port=-1"], "--port takes a number from 0 to 65535, not '-1'"),
        (["--port"], "--port needs a value"),
        (["--host", "--port", "9000"], "--host takes an address, not '--port'"),
        (["--port", "1", "--port", "2"], "--port is given more than once"),
        (["--prot", "9000"], "unknown argument '--prot'; \(takes)"),
        (["9000"], "unknown argument '9000'; \(takes)"),
        (["--wiring", "spring"], "--wiring takes factory or hand, not 'spring'"),
        (["--shutdown-timeout", "0"], "--shutdown-timeout takes a number of seconds from 1 to 3600, not '0'"),
        (["--shutdown-drill", "explode"], "--shutdown-drill takes hang or throw, not 'explode'"),
        (["--profile", "--port", "1"], "--profile takes a file path, not '--port'"),
    ])
    func rejectsABadCommandLineNamingTheArgument(arguments: [String], message: String) {
        #expect {
            try ServerOptions(arguments: arguments)
        } throws: { error in
            (error as? ServerOptions.UsageError)?.message == message
        }
    }

    @Test func namesAPortInUseAndOtherSocketErrors() {
        #expect(
            startupFailureMessage(IOError(errnoCode: EADDRINUSE, reason: "bind"), host: "127.0.0.1", port: 8080)
                == "port 8080 is already in use")
        #expect(
            startupFailureMessage(IOError(errnoCode: EACCES, reason: "bind"), host: "127.0.0.1", port: 80)
                == "cannot listen on 127.0.0.1:80: Permission denied")
    }
}

/// `FactoryServer` run as a user runs it: a command line it cannot serve ends it
/// with one line naming the problem and status 1, not a crash report.
@Suite(.timeLimit(.minutes(1)))
struct CommandLineTests {
    @Test func aPortInUseStopsTheServerWithOneLine() async throws {
        let first = try ChildServer.start()
        defer { kill(first.process.processIdentifier, SIGTERM) }
        let port = try #require(await first.port())

        let second = try ChildServer.start(["--port", "\(port)"])
        let status = try #require(await second.exitStatus(), "the second server did not exit")
        #expect(status == 1)
        #expect(second.errors.lines == ["error: port \(port) is already in use"])
        #expect(second.output.lines == [])

        kill(first.process.processIdentifier, SIGTERM)
        #expect(await first.exitStatus() == 0)
    }

    @Test func aPortThatIsNotANumberStopsTheServerWithOneLine() async throws {
        let server = try ChildServer.start(["--port", "abc"])
        let status = try #require(await server.exitStatus(), "the server did not exit")
        #expect(status == 1)
        #expect(server.errors.lines == ["error: --port takes a number from 0 to 65535, not 'abc'"])
        #expect(server.output.lines == [])
    }
}
