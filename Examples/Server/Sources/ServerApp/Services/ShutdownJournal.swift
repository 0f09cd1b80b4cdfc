import Synchronization

/// What the services of this process have shut down, in order.
///
/// The `onShutdown` closures in `Container+Server.swift` write here, so the
/// tests (and `FactoryServer`, when it exits) can tell what was shut down, once
/// each and in which order.
public final class ShutdownJournal: Sendable {
    /// The process's journal.
    public static let shared = ShutdownJournal()

    private let lines = Mutex<[String]>([])

    /// Records that `name` was shut down.
    public func record(_ name: String) {
        lines.withLock { $0.append(name) }
    }

    /// Everything recorded so far, in order.
    public var entries: [String] {
        lines.withLock { $0 }
    }
}
