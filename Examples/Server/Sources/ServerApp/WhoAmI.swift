import Hummingbird

/// The body of `GET /whoami`: what the request's services saw.
public struct WhoAmI: ResponseCodable, Equatable, Sendable {
    /// The user the request-scoped session was built for.
    public let user: String
    /// The request identifier the session was built for.
    public let requestID: String
    /// The session's serial when the handler started.
    public let session: Int
    /// The session's serial after the handler awaited; equal to ``session``
    /// unless the request lost its container.
    public let sessionAfterAwait: Int
    /// What the unique-scope greeter said, resolved after the await.
    public let greeting: String
    /// Whether `?together=n` requests ran at once while this one waited.
    public let overlapped: Bool
    /// Requests the process had served when this one answered (singleton).
    public let requestsServed: Int
    /// The tag of the singleton counter; the same for every request.
    public let counterTag: UInt32
}
