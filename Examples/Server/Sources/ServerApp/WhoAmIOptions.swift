import Hummingbird

/// The query options of `GET /whoami`, read from the request's query string.
///
/// A value that is not a whole number in range, or a parameter the route does
/// not know, makes the request fail with `400 Bad Request` and a message that
/// names it, rather than being clamped or ignored.
public struct WhoAmIOptions: Equatable, Sendable {
    /// The longest `delay` accepted, in milliseconds.
    public static let maximumDelay = 2000
    /// The largest `together` accepted.
    public static let maximumTogether = 8

    /// How long the handler sleeps before it resolves again, in milliseconds (0...2000).
    public let delay: Int
    /// How many `/whoami` requests the handler waits to see in flight at once (1...8).
    public let together: Int

    /// Options with the given values, which must be in range.
    ///
    /// - Parameters:
    ///   - delay: Milliseconds to sleep, 0 through ``maximumDelay``.
    ///   - together: Requests to wait for, 1 through ``maximumTogether``.
    public init(delay: Int = 0, together: Int = 1) {
        precondition((0...Self.maximumDelay).contains(delay), "delay out of range")
        precondition((1...Self.maximumTogether).contains(together), "together out of range")
        self.delay = delay
        self.together = together
    }

    /// Reads `delay` and `together` from a query string's parameters.
    ///
    /// - Parameter query: The request's `uri.queryParameters`, or any sequence of
    ///   name and value pairs in query order.
    /// - Throws: `HTTPError(.badRequest)` whose message names the first parameter
    ///   that is unknown, repeated, not a whole number, or out of range.
    public init<Query: Sequence>(query: Query) throws(HTTPError)
    where Query.Element == (key: Substring, value: Substring) {
        var delay = 0
        var together = 1
        var seen: Set<Substring> = []
        for (name, value) in query {
            guard seen.insert(name).inserted else {
                throw HTTPError(.badRequest, message: "query parameter '\(name)' is given more than once")
            }
            switch name {
            case "delay":
                delay = try Self.number(value, named: "delay", in: 0...Self.maximumDelay, unit: " (milliseconds)")
            case "together":
                together = try Self.number(value, named: "together", in: 1...Self.maximumTogether, unit: "")
            default:
                throw HTTPError(
                    .badRequest,
                    message: "unknown query parameter '\(name)'; /whoami takes delay and together")
            }
        }
        self.init(delay: delay, together: together)
    }

    private static func number(
        _ value: Substring, named name: String, in range: ClosedRange<Int>, unit: String
    ) throws(HTTPError) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw HTTPError(
                .badRequest,
                message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(unit), not '\(value)'")
        }
        return number
    }
}
