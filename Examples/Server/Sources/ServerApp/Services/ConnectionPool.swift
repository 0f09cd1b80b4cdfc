import Synchronization

/// Stands for a database connection pool: opened once for the process, and
/// closed when the application shuts down, after everything built on it.
public final class ConnectionPool: Sendable {
    private let open = Mutex(true)

    /// Creates an open pool.
    public init() {}

    /// Whether ``close()`` has not run yet.
    public var isOpen: Bool {
        open.withLock { $0 }
    }

    /// Closes the pool; records it in the ``ShutdownJournal``.
    public func close() async {
        open.withLock { $0 = false }
        ShutdownJournal.shared.record("connection pool")
    }
}
