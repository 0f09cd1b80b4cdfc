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
    /// Whether another `/whoami` request was in flight at some moment while this
    /// one ran (from the start of its handler until it built this answer):
    /// `false` for a lone request. Equal to `inFlightAtOnce > 1`.
    public let overlapped: Bool
    /// The most `/whoami` requests in flight at one moment while this one ran,
    /// itself included: 1 for a lone request, at least `n` when `?together=n`
    /// was reached (the handler waits at most two seconds for it).
    public let inFlightAtOnce: Int
    /// Requests the process had served when this one answered (singleton).
    public let requestsServed: Int
    /// The tag of the singleton counter; the same for every request.
    public let counterTag: UInt32
}
