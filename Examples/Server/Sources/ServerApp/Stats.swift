import Hummingbird

/// The body of `GET /stats`.
public struct Stats: ResponseCodable, Equatable, Sendable {
    /// Requests served since the process started.
    public let requests: Int
    /// `/whoami` requests running now.
    public let inFlight: Int
    /// The most `/whoami` requests that ever ran at once.
    public let peakInFlight: Int
    /// The tag of the singleton counter.
    public let counterTag: UInt32
}
