/// What one request of the load asks, and the answer it must get.
enum RequestKind: Int, CaseIterable, Sendable {
    // The mix: the example's routes, and the errors it answers.
    case whoAmI
    case whoAmIHead
    case stats
    case catalog
    case fail
    case notFound
    case methodNotAllowed
    case badQuery
    // Headers at the limits (the hostile connections): still answered.
    case longRequestID
    case longUser
    // Malformed requests (the hostile connections): one per connection.
    case garbage
    case badVersion
    case headerWithoutColon
    case badMethod
    case badContentLength
    case lengthAndChunked
    case badChunkSize
    case headerOverLimit
    case nulInHeader
    case cutShort

    /// The fixed mix each normal connection cycles through (from an offset of its
    /// own, so the connections are not in step): 20 requests.
    static let mix: [RequestKind] = [
        .whoAmI, .stats, .whoAmI, .catalog, .whoAmI, .fail, .whoAmI, .whoAmI, .whoAmIHead, .whoAmI,
        .notFound, .whoAmI, .catalog, .whoAmI, .methodNotAllowed, .whoAmI, .whoAmI, .badQuery, .whoAmI, .whoAmI,
    ]

    /// The malformed kinds, in the order the hostile connections send them.
    static let malformed: [RequestKind] = [
        .garbage, .badVersion, .headerWithoutColon, .badMethod, .badContentLength, .lengthAndChunked,
        .badChunkSize, .headerOverLimit, .nulInHeader, .cutShort,
    ]

    /// Whether the request is malformed: the server must refuse it (a 4xx or a
    /// closed connection), never serve it.
    var isMalformed: Bool { rawValue >= RequestKind.garbage.rawValue }

    /// The status the server must answer with (for a well-formed request).
    var expectedStatus: Int {
        switch self {
        case .whoAmI, .whoAmIHead, .stats, .catalog, .longRequestID: 200
        case .fail: 500
        case .notFound: 404
        case .methodNotAllowed: 405
        case .badQuery, .longUser: 400
        default: 400
        }
    }

    /// How the report names it.
    var label: String {
        switch self {
        case .whoAmI: "GET /whoami"
        case .whoAmIHead: "HEAD /whoami"
        case .stats: "GET /stats"
        case .catalog: "GET /catalog"
        case .fail: "GET /fail (500 asked for)"
        case .notFound: "GET /nowhere (404 asked for)"
        case .methodNotAllowed: "POST /whoami (405 asked for)"
        case .badQuery: "GET /whoami?delay=abc (400 asked for)"
        case .longRequestID: "GET /whoami, X-Request-ID of 20,000 bytes (200, id replaced)"
        case .longUser: "GET /whoami, X-User of 20,000 bytes (400 asked for)"
        case .garbage: "garbage request line"
        case .badVersion: "HTTP/9.9"
        case .headerWithoutColon: "header line without a colon"
        case .badMethod: "method with a '@'"
        case .badContentLength: "Content-Length: abc"
        case .lengthAndChunked: "Content-Length and chunked together"
        case .badChunkSize: "chunk size 'ZZ'"
        case .headerOverLimit: "one header of 100,000 bytes"
        case .nulInHeader: "NUL byte in a header value"
        case .cutShort: "request cut short, then the client's half-close"
        }
    }

    /// The bytes of the request; `id` goes in `X-Request-ID`, `user` in `X-User`.
    func bytes(id: String, user: String) -> [UInt8] {
        let common = "Host: 127.0.0.1\r\nX-Request-ID: \(id)\r\n"
        let text: String
        switch self {
        case .whoAmI: text = "GET /whoami HTTP/1.1\r\n\(common)X-User: \(user)\r\n\r\n"
        case .whoAmIHead: text = "HEAD /whoami HTTP/1.1\r\n\(common)X-User: \(user)\r\n\r\n"
        case .stats: text = "GET /stats HTTP/1.1\r\n\(common)\r\n"
        case .catalog: text = "GET /catalog HTTP/1.1\r\n\(common)\r\n"
        case .fail: text = "GET /fail HTTP/1.1\r\n\(common)\r\n"
        case .notFound: text = "GET /nowhere HTTP/1.1\r\n\(common)\r\n"
        case .methodNotAllowed: text = "POST /whoami HTTP/1.1\r\n\(common)Content-Length: 0\r\n\r\n"
        case .badQuery: text = "GET /whoami?delay=abc HTTP/1.1\r\n\(common)\r\n"
        case .longRequestID:
            text = "GET /whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: \(Self.long)\r\nX-User: \(user)\r\n\r\n"
        case .longUser: text = "GET /whoami HTTP/1.1\r\n\(common)X-User: \(Self.long)\r\n\r\n"
        case .garbage: text = "HELLO THERE\r\n\r\n"
        case .badVersion: text = "GET /whoami HTTP/9.9\r\n\(common)\r\n"
        case .headerWithoutColon: text = "GET /whoami HTTP/1.1\r\n\(common)NoColonHere\r\n\r\n"
        case .badMethod: text = "G@T /whoami HTTP/1.1\r\n\(common)\r\n"
        case .badContentLength: text = "POST /whoami HTTP/1.1\r\n\(common)Content-Length: abc\r\n\r\n"
        case .lengthAndChunked:
            text = "POST /whoami HTTP/1.1\r\n\(common)Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        case .badChunkSize: text = "POST /whoami HTTP/1.1\r\n\(common)Transfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n"
        case .headerOverLimit: text = "GET /whoami HTTP/1.1\r\n\(common)X-Padding: \(Self.huge)\r\n\r\n"
        case .nulInHeader: text = "GET /whoami HTTP/1.1\r\n\(common)X-User: a\u{0}b\r\n\r\n"
        case .cutShort: text = "GET /whoami HTTP/1.1\r\nHost: 127.0."
        }
        return Array(text.utf8)
    }

    /// A header value of 20,000 bytes.
    static let long = String(repeating: "a", count: 20_000)
    /// A header value of 100,000 bytes, over the HTTP parser's limit (80 KB).
    static let huge = String(repeating: "b", count: 100_000)
}
