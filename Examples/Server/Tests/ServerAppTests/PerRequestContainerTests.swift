import Foundation
import Hummingbird
import ServerApp
import Testing

/// The suites that start a server in this process. Serialized because the
/// `.singleton` services are process-wide: the counters these tests read are
/// shared by every server in the test process.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct LiveServerTests {}

extension LiveServerTests {
    /// Starts the real server on a loopback port and talks HTTP to it.
    @Suite struct PerRequestContainerTests {
        @Test func eachRequestSeesItsOwnUserAndSession() async throws {
            try await withLiveServer(logLevel: .warning) { client in
                let ann = try await client.whoAmI(user: "ann")
                let bob = try await client.whoAmI(user: "bob")
                let anonymous = try await client.whoAmI(user: nil)

                #expect(ann.user == "ann")
                #expect(bob.user == "bob")
                #expect(anonymous.user == "anonymous")
                #expect(ann.greeting == "Hello, ann (\(ann.requestID))")
                #expect(Set([ann.session, bob.session, anonymous.session]).count == 3)
                #expect(Set([ann.requestID, bob.requestID, anonymous.requestID]).count == 3)
            }
        }

        /// `overlapped` says whether another `/whoami` ran alongside: a request made
        /// after the previous one answered ran alone.
        @Test func aLoneRequestDidNotOverlap() async throws {
            try await withLiveServer(logLevel: .warning) { client in
                let first = try await client.whoAmI(user: "ann")
                let second = try await client.whoAmI(user: "bob")
                #expect(!first.overlapped)
                #expect(first.inFlightAtOnce == 1)
                #expect(!second.overlapped)
                #expect(second.inFlightAtOnce == 1)
            }
        }

        @Test func requestIDHeaderReachesTheSessionAndComesBack() async throws {
            try await withLiveServer(logLevel: .warning) { client in
                let response = try await client.execute(
                    uri: "/whoami",
                    method: .get,
                    headers: [.xUser: "cy", .xRequestID: "trace-42"]
                )
                #expect(response.status == .ok)
                #expect(response.headers[.xRequestID] == "trace-42")
                let body = try decode(WhoAmI.self, from: response.body)
                #expect(body.requestID == "trace-42")
                #expect(body.greeting == "Hello, cy (trace-42)")
            }
        }

        @Test func concurrentRequestsKeepRequestScopedServicesApart() async throws {
            try await withLiveServer(logLevel: .warning) { client in
                let port = client.port
                let before = try await client.stats()

                // Two connections; each handler waits until both run at once,
                // then sleeps, then resolves its session again.
                async let annResponse = whoAmIOnOwnConnection(port: port, user: "ann")
                async let bobResponse = whoAmIOnOwnConnection(port: port, user: "bob")
                let (ann, bob) = try await (annResponse, bobResponse)

                #expect(ann.overlapped)
                #expect(bob.overlapped)
                #expect(ann.inFlightAtOnce == 2)
                #expect(bob.inFlightAtOnce == 2)

                // Request-scoped: each request saw only its own user and session,
                // before and after awaiting while the other request ran.
                #expect(ann.user == "ann")
                #expect(bob.user == "bob")
                #expect(ann.greeting == "Hello, ann (\(ann.requestID))")
                #expect(bob.greeting == "Hello, bob (\(bob.requestID))")
                #expect(ann.session == ann.sessionAfterAwait)
                #expect(bob.session == bob.sessionAfterAwait)
                #expect(ann.session != bob.session)
                #expect(ann.requestID != bob.requestID)

                // Singleton: one counter for both requests and for /stats.
                let after = try await client.stats()
                #expect(ann.counterTag == bob.counterTag)
                #expect(after.counterTag == ann.counterTag)
                #expect(after.counterTag == before.counterTag)
                #expect(after.requests >= before.requests + 3)
                #expect(after.peakInFlight >= 2)
                #expect(after.inFlight == 0)
            }
        }

        @Test func manyConcurrentRequestsEachGetTheirOwnUser() async throws {
            try await withLiveServer(logLevel: .warning) { client in
                let port = client.port
                let users = (1...6).map { "user-\($0)" }
                let responses = try await withThrowingTaskGroup(of: WhoAmI.self) { group in
                    for user in users {
                        group.addTask {
                            try await whoAmIOnOwnConnection(port: port, user: user, together: users.count, delay: 20)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }

                #expect(responses.allSatisfy { $0.overlapped })
                #expect(responses.allSatisfy { $0.inFlightAtOnce == users.count })
                #expect(Set(responses.map(\.user)) == Set(users))
                #expect(responses.allSatisfy { $0.greeting == "Hello, \($0.user) (\($0.requestID))" })
                #expect(responses.allSatisfy { $0.session == $0.sessionAfterAwait })
                #expect(Set(responses.map(\.session)).count == users.count)
                #expect(Set(responses.map(\.counterTag)).count == 1)
            }
        }
    }
}

extension LiveServerTests {
    @Suite struct AsyncServiceTests {
        @Test func concurrentFirstRequestsOpenTheAsyncStoreOnce() async throws {
            // ServerGraphTests opens one in a container of its own (serialized with this suite).
            let openedBefore = CatalogStore.opened
            try await withLiveServer(logLevel: .warning) { client in
                let port = client.port
                // 20 first requests at once, each on its own connection: all wait for
                // one open() (100 ms), none opens a second store.
                let responses = try await withThrowingTaskGroup(of: CatalogResponse.self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            let response = try await LiveClient(port: port).get("/catalog")
                            #expect(response.status == .ok)
                            return try decode(CatalogResponse.self, from: response.body)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(responses.count == 20)
                #expect(Set(responses.map(\.storeTag)).count == 1)
                #expect(responses.allSatisfy { $0.items == ["kettle", "teapot", "cups"] })
                #expect(CatalogStore.opened == openedBefore + 1)
            }
        }
    }
}

// MARK: - Helpers

private struct MissingBody: Error {}

private func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer?) throws -> T {
    guard let body else { throw MissingBody() }
    return try JSONDecoder().decode(type, from: Data(body.readableBytesView))
}

/// One `GET /whoami` on a connection of its own, so requests really run side by side.
private func whoAmIOnOwnConnection(
    port: Int,
    user: String,
    together: Int = 2,
    delay: Int = 150
) async throws -> WhoAmI {
    let response = try await LiveClient(port: port).get(
        "/whoami?together=\(together)&delay=\(delay)",
        headers: [.xUser: user]
    )
    #expect(response.status == .ok)
    return try decode(WhoAmI.self, from: response.body)
}

extension LiveClient {
    fileprivate func whoAmI(user: String?) async throws -> WhoAmI {
        var headers: HTTPFields = [:]
        if let user {
            headers[.xUser] = user
        }
        let response = try await execute(uri: "/whoami", method: .get, headers: headers)
        #expect(response.status == .ok)
        return try decode(WhoAmI.self, from: response.body)
    }

    fileprivate func stats() async throws -> Stats {
        let response = try await execute(uri: "/stats", method: .get)
        #expect(response.status == .ok)
        return try decode(Stats.self, from: response.body)
    }
}
