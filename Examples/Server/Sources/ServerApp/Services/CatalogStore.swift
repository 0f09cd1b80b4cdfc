import Hummingbird
import Synchronization

/// A store that must "connect" before use: its `open()` suspends (as a real
/// database pool's handshake would), so it is built by an `AsyncFactory`.
///
/// Registered `.singleton`: the first requests that need it wait for one
/// connection, however many arrive at once; later requests get it at once.
public final class CatalogStore: Sendable {
    /// How many stores were opened in this process: 1, whatever the traffic.
    public static var opened: Int { openings.withLock { $0 } }
    private static let openings = Mutex(0)

    /// A random tag, so clients can see that every request met the same store.
    public let instanceTag: UInt32 = .random(in: 1...UInt32.max)
    /// The catalog's items.
    public let items: [String]
    /// The pool the store reads through: it must outlive the store.
    public let pool: ConnectionPool

    private init(items: [String], pool: ConnectionPool) {
        self.items = items
        self.pool = pool
    }

    /// Opens the store on `pool`: waits `latency` (the simulated handshake), then loads the catalog.
    public static func open(pool: ConnectionPool, latency: Duration = .milliseconds(100)) async throws -> CatalogStore {
        openings.withLock { $0 += 1 }
        try await Task.sleep(for: latency)
        return CatalogStore(items: ["kettle", "teapot", "cups"], pool: pool)
    }

    /// Closes the store, while its pool is still open; records it in the ``ShutdownJournal``.
    public func close() async {
        precondition(pool.isOpen, "the catalog store must be closed before its connection pool")
        ShutdownJournal.shared.record("catalog store")
    }
}

/// The body of `GET /catalog`.
public struct CatalogResponse: ResponseCodable, Equatable, Sendable {
    /// The catalog's items.
    public let items: [String]
    /// The tag of the singleton store.
    public let storeTag: UInt32
    /// How many stores the process has opened so far.
    public let storesOpened: Int
}
