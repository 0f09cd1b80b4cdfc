import Synchronization

/// Per-request state: who is calling and which request this is.
///
/// Registered `.cached` on ``FactoryCore/Container``; because every request
/// runs with its own container, "cached" means "one per request".
public final class RequestSession: Sendable {
    /// Numbers sessions so tests can tell two instances apart.
    private static let serials = Mutex(0)
    /// The request identifiers of the sessions not ended yet.
    private static let openRequests = Mutex<Set<String>>([])

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
        _ = Self.openRequests.withLock { $0.insert(requestID) }
        RequestLifetimes.sessions.made()
    }

    deinit {
        RequestLifetimes.sessions.released()
    }

    /// Whether a session for `requestID` was made and has not ended.
    public static func isOpen(requestID: String) -> Bool {
        openRequests.withLock { $0.contains(requestID) }
    }

    /// Ends the session (its request is over); records it in the ``ShutdownJournal``.
    public func end() {
        _ = Self.openRequests.withLock { $0.remove(requestID) }
        ShutdownJournal.shared.record("session \(requestID)")
    }
}
