import Synchronization

/// What the services of this process have shut down, in order: the latest
/// ``capacity`` entries.
///
/// The `onShutdown` closures in `Container+Server.swift` write here, so the
/// tests (and `FactoryServer`, when it exits) can tell what was shut down, once
/// each and in which order. Every request's session writes an entry, so the
/// journal keeps only the latest ones and counts the others: a server's memory
/// must not grow with its traffic.
public final class ShutdownJournal: Sendable {
    /// The process's journal.
    public static let shared = ShutdownJournal()

    /// How many entries the journal keeps.
    public let capacity: Int

    private struct State {
        var entries: [String] = []
        var dropped = 0
    }

    private let state = Mutex(State())

    /// Creates an empty journal that keeps the latest `capacity` entries.
    ///
    /// - Parameter capacity: At least 1; the process's journal keeps 8, enough
    ///   for the application's services after the sessions of the last requests.
    public init(capacity: Int = 8) {
        precondition(capacity >= 1, "a journal keeps at least one entry")
        self.capacity = capacity
    }

    /// Records that `name` was shut down, dropping the oldest entry when the journal is full.
    public func record(_ name: String) {
        state.withLock { state in
            if state.entries.count == capacity {
                state.entries.removeFirst()
                state.dropped += 1
            }
            state.entries.append(name)
        }
    }

    /// The entries kept, oldest first: the latest ``capacity`` recorded.
    public var entries: [String] {
        state.withLock { $0.entries }
    }

    /// How many entries were recorded before those kept, and dropped.
    public var dropped: Int {
        state.withLock { $0.dropped }
    }
}
