import HTTPTypes
import Hummingbird

/// The limits on what a client sends in the headers the server echoes.
///
/// A request's `X-Request-ID` goes back in a response header, into the request's
/// session (so twice into `/whoami`'s body) and into its log lines; `X-User` goes
/// twice into the body. Taken as sent, a 20,000-byte header came back three times
/// and was written to the log. So:
///
/// - `X-Request-ID` is taken only when it is 1 to ``maximumRequestIDLength``
///   characters, each an ASCII letter or digit or one of `- _ . : + / = @` (a UUID,
///   a ULID or a base64 token fits). Any other value is ignored, as a missing one
///   is: the server makes one up (`req-<n>`). A correlation id that the server does
///   not take should not fail the request.
/// - `X-User` must be 1 to ``maximumUserLength`` ASCII letters, digits or
///   `- _ . @`; any other value is answered `400 Bad Request`, since serving the
///   request as somebody else would be wrong.
public enum RequestHeaders {
    /// The longest `X-Request-ID` the server takes, in bytes.
    public static let maximumRequestIDLength = 128
    /// The longest `X-User` the server takes, in bytes.
    public static let maximumUserLength = 64

    /// The request's identifier: the client's `X-Request-ID` if it is within the
    /// limits, otherwise `req-<number>`.
    ///
    /// - Parameters:
    ///   - header: The `X-Request-ID` header's value, if any.
    ///   - number: The request's number, for an identifier the server makes up.
    public static func requestID(_ header: String?, number: Int) -> String {
        if let header, isWithinLimits(header, maximumLength: maximumRequestIDLength, extra: requestIDPunctuation) {
            return header
        }
        return "req-\(number)"
    }

    /// The request's caller, from its `X-User` header: ``User/anonymous`` without one.
    ///
    /// - Throws: `HTTPError(.badRequest)` naming the limit, for a value outside it
    ///   (the message does not repeat the value).
    public static func user(_ header: String?) throws(HTTPError) -> User {
        guard let header else { return .anonymous }
        guard isWithinLimits(header, maximumLength: maximumUserLength, extra: userPunctuation) else {
            throw HTTPError(
                .badRequest,
                message:
                    "X-User must be 1 to \(maximumUserLength) ASCII letters, digits or - _ . @ (got \(header.utf8.count) bytes)"
            )
        }
        return User(id: header)
    }

    private static let requestIDPunctuation = Set("-_.:+/=@".utf8)
    private static let userPunctuation = Set("-_.@".utf8)

    private static func isWithinLimits(_ value: String, maximumLength: Int, extra: Set<UInt8>) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        return bytes.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || extra.contains(byte)
        }
    }
}
