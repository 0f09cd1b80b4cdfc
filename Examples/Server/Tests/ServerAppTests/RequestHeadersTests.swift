import Hummingbird
import ServerApp
import Testing

/// The limits on the headers the server echoes (`RequestHeaders`).
@Suite struct RequestHeadersTests {
    @Test(arguments: [
        "trace-42", "0f8e2d6c-6a3b-4c55-9c7a-3f1e2b4d5a6c", "01J9ZQ7X4K8M2N3P5R6T7V8W9Y", "dGVzdA==", "a:b/c+d@e.f_g",
        String(repeating: "b", count: RequestHeaders.maximumRequestIDLength),
    ])
    func aRequestIDWithinTheLimitsIsTaken(id: String) {
        #expect(RequestHeaders.requestID(id, number: 7) == id)
    }

    @Test(arguments: [
        "", String(repeating: "b", count: RequestHeaders.maximumRequestIDLength + 1), String(repeating: "a", count: 20_000),
        "with space", "quote\"d", "new\nline", "tab\there", "é", "<script>", "a,b", "a;b",
    ])
    func anyOtherRequestIDIsReplacedByTheServers(id: String) {
        #expect(RequestHeaders.requestID(id, number: 7) == "req-7")
        #expect(RequestHeaders.requestID(nil, number: 8) == "req-8")
    }

    @Test func aUserWithinTheLimitsIsTaken() throws {
        #expect(try RequestHeaders.user(nil) == .anonymous)
        #expect(try RequestHeaders.user("ann") == User(id: "ann"))
        #expect(try RequestHeaders.user("ann.lee-2_x@example") == User(id: "ann.lee-2_x@example"))
        let longest = String(repeating: "u", count: RequestHeaders.maximumUserLength)
        #expect(try RequestHeaders.user(longest) == User(id: longest))
    }

    @Test(arguments: ["", String(repeating: "u", count: RequestHeaders.maximumUserLength + 1), "ann lee", "ann\"", "a/b"])
    func anyOtherUserIsABadRequestThatDoesNotRepeatIt(user: String) {
        #expect {
            try RequestHeaders.user(user)
        } throws: { error in
            guard let error = error as? HTTPError, error.status == .badRequest, let message = error.body else { return false }
            return message.hasPrefix("X-User must be 1 to 64 ASCII letters, digits or - _ . @")
                && (user.isEmpty || !message.contains(user))
        }
    }
}

extension LiveServerTests {
    /// A header at the limits, through the real server: not echoed, not in the body.
    @Suite struct HeaderLimitTests {
        @Test func aRequestIDOf20000BytesIsReplacedAndNotEchoed() async throws {
            try await withLiveServer { client in
                let long = String(repeating: "a", count: 20_000)
                let response = try await client.execute(
                    uri: "/whoami", method: .get, headers: [.xRequestID: long, .xUser: "ann"])
                #expect(response.status == .ok)
                let echoed = try #require(response.headers[.xRequestID])
                #expect(echoed.hasPrefix("req-"))
                #expect(response.body.readableBytes < 1024)
                #expect(!String(buffer: response.body).contains("aaaa"))
            }
        }

        @Test func aUserOf20000BytesIsABadRequestWithTheRequestID() async throws {
            try await withLiveServer { client in
                let long = String(repeating: "a", count: 20_000)
                let response = try await client.execute(
                    uri: "/whoami", method: .get, headers: [.xRequestID: "long-user", .xUser: long])
                #expect(response.status == .badRequest)
                #expect(response.headers[.xRequestID] == "long-user")
                #expect(response.body.readableBytes < 1024)
                #expect(String(buffer: response.body).contains("X-User must be 1 to 64"))
            }
        }
    }
}
