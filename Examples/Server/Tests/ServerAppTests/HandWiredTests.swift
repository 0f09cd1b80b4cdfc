import Foundation
import Hummingbird
import ServerApp
import Testing

extension LiveServerTests {
    /// `--wiring hand`, the same server wired without the library for the load run's
    /// comparison, answers as the factory wiring does: otherwise the comparison would
    /// measure two different servers.
    @Suite struct HandWiredTests {
        @Test func answersEveryRouteAsTheFactoryWiringDoes() async throws {
            try await withLiveServer(wiring: .hand) { client in
                let response = try await client.execute(
                    uri: "/whoami", method: .get, headers: [.xUser: "ann", .xRequestID: "hand-1"])
                #expect(response.status == .ok)
                #expect(response.headers[.xRequestID] == "hand-1")
                let body = try JSONDecoder().decode(WhoAmI.self, from: Data(response.body.readableBytesView))
                #expect(body.user == "ann")
                #expect(body.requestID == "hand-1")
                #expect(body.greeting == "Hello, ann (hand-1)")
                #expect(body.session == body.sessionAfterAwait)
                #expect(!body.overlapped)
                // The session ended with its request, before the answer went out.
                #expect(ShutdownJournal.shared.entries.contains("session hand-1"))
                #expect(!RequestSession.isOpen(requestID: "hand-1"))

                let failed = try await client.execute(uri: "/fail", method: .get, headers: [.xRequestID: "hand-2"])
                #expect(failed.status == .internalServerError)
                #expect(failed.headers[.xRequestID] == "hand-2")
                #expect(ShutdownJournal.shared.entries.contains("session hand-2"))

                #expect(try await client.execute(uri: "/catalog", method: .get).status == .ok)
                #expect(try await client.execute(uri: "/stats", method: .get).status == .ok)
                #expect(try await client.execute(uri: "/whoami", method: .post).status == .methodNotAllowed)
                #expect(try await client.execute(uri: "/whoami?delay=abc", method: .get).status == .badRequest)
                #expect(try await client.execute(uri: "/nowhere", method: .get).status == .notFound)
                #expect(try await client.execute(uri: "/whoami", method: .get, headers: [.xUser: "a b"]).status == .badRequest)
            }
        }

        @Test func concurrentRequestsKeepTheirOwnSessions() async throws {
            try await withLiveServer(wiring: .hand) { client in
                let port = client.port
                let bodies = try await withThrowingTaskGroup(of: WhoAmI.self) { group in
                    for user in ["ann", "bob", "cy"] {
                        group.addTask {
                            let response = try await LiveClient(port: port).get(
                                "/whoami?together=3&delay=20", headers: [.xUser: user])
                            return try JSONDecoder().decode(WhoAmI.self, from: Data(response.body.readableBytesView))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(Set(bodies.map(\.user)) == ["ann", "bob", "cy"])
                #expect(bodies.allSatisfy { $0.inFlightAtOnce == 3 && $0.session == $0.sessionAfterAwait })
                #expect(Set(bodies.map(\.session)).count == 3)
            }
        }
    }
}
