import Synchronization

/// Per-request state: who is calling and which request this is.
///
/// Registered `.cached` on ``FactoryCore/Container``; because every request
/// runs with its own container, "cached" means "one per request".
public final class RequestSession: Sendable {
    /// Numbers sessions so tests can tell two instances apart.
    private static let serials = Mutex(0)

    /// A process-unique number for this instance.
    public let serial: Int
    /// The caller.
    public let user: User
    /// The request's identifier (`X-Request-ID`, or one the server made up).
    public let requestID: String

    /// Creates a session for one request.
    public init(user: User, requestID: String) {
        self.user = user
        self.requestID = requestID
        self.serial = Self.serials.withLock { value in
            value += 1
            return value
        }
    }
}
