import Foundation
import Hummingbird
import ServerApp
import Testing

@Suite struct WhoAmIOptionsTests {
    @Test func readsValuesInRange() throws {
        let options = try WhoAmIOptions(query: parameters("delay=250&together=3"))
        #expect(options == WhoAmIOptions(delay: 250, together: 3))
        #expect(try WhoAmIOptions(query: parameters("")) == WhoAmIOptions())
    }

    @Test(arguments: [
        ("delay=abc", "delay must be a whole number from 0 to 2000 (milliseconds), not 'abc'"),
        ("delay=2001", "delay must be a whole number from 0 to 2000 (milliseconds), not '2001'"),
        ("delay=-1", "delay must be a whole number from 0 to 2000 (milliseconds), not '-1'"),
        ("together=999", "together must be a whole number from 1 to 8, not '999'"),
        ("together=0", "together must be a whole number from 1 to 8, not '0'"),
        ("together=", "together must be a whole number from 1 to 8, not ''"),
        ("dealy=5", "unknown query parameter 'dealy'; /whoami takes delay and together"),
        ("delay=1&delay=2", "query parameter 'delay' is given more than once"),
    ])
    func rejectsBadValuesWithTheirName(query: String, message: String) {
        #expect {
            try WhoAmIOptions(query: parameters(query))
        } throws: { error in
            let error = error as? HTTPError
            return error?.status == .badRequest && error?.body == message
        }
    }

    /// The server answers 400 with the message; a request with bad values never
    /// reaches the handler's wait (`together` would make it wait for others).
    @Test(.timeLimit(.minutes(1)))
    func serverAnswersBadRequestWithTheMessage() async throws {
        try await withLiveServer(logLevel: .warning) { client in
            let response = try await client.execute(uri: "/whoami?delay=abc&together=999", method: .get)
            #expect(response.status == .badRequest)
            let body = String(buffer: response.body)
            #expect(body.contains("delay must be a whole number from 0 to 2000 (milliseconds), not 'abc'"))
        }
    }
}

/// `a=1&b=2` as the name and value pairs a query string holds.
private func parameters(_ query: String) -> [(key: Substring, value: Substring)] {
    query.split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (key: parts[0], value: parts.count > 1 ? parts[1] : "")
    }
}
