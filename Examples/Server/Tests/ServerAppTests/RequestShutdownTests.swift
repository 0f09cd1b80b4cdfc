import Foundation
import Hummingbird
import ServerApp
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LiveServerTests {
    /// Each request's container is shut down when the request ends, however it ends:
    /// its `.cached` session is ended exactly once.
    @Suite struct RequestShutdownTests {
        @Test func aRequestThatSucceedsEndsItsSession() async throws {
            try await withLiveServer(logLevel: .warning) { client in
                let response = try await client.execute(uri: "/whoami", method: .get, headers: [.xRequestID: "ok-1"])
                #expect(response.status == .ok)
                // Shut down before the response was sent.
                #expect(sessionsEnded("ok-1") == 1)
                #expect(!RequestSession.isOpen(requestID: "ok-1"))
            }
        }

        @Test func aRequestWhoseHandlerThrowsEndsItsSession() async throws {
            try await withLiveServer(logLevel: .critical) { client in
                let response = try await client.execute(uri: "/fail", method: .get, headers: [.xRequestID: "fail-1"])
                #expect(response.status == .internalServerError)
                #expect(sessionsEnded("fail-1") == 1)
            }
        }

        @Test func aRequestWhoseClientGoesAwayEndsItsSession() async throws {
            try await withLiveServer(logLevel: .critical) { client in
                let port = client.port
                let connection = try RawConnection(port: port)
                connection.send("GET /whoami?delay=2000 HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: gone-1\r\n\r\n")
                // The handler runs (it made the session) and sleeps; the client hangs up.
                #expect(await eventually { RequestSession.isOpen(requestID: "gone-1") })
                connection.close()
                #expect(await eventually { sessionsEnded("gone-1") == 1 })
                #expect(!RequestSession.isOpen(requestID: "gone-1"))
            }
        }
    }
}

/// How many times the session of `requestID` was ended.
private func sessionsEnded(_ requestID: String) -> Int {
    ShutdownJournal.shared.entries.filter { $0 == "session \(requestID)" }.count
}

/// Polls `condition` every 10 ms for up to 10 seconds; whether it came true.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A plain TCP connection to the server on loopback, to hang up mid-request.
private struct RawConnection {
    private let socket: Int32

    struct Failed: Error {}

    init(port: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failed() }
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(socket, &bytes, bytes.count)
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(socket)
        #else
        _ = Darwin.close(socket)
        #endif
    }
}
