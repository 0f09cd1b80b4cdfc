import Synchronization

/// Counts every request the process has served.
///
/// Registered `.singleton`: one instance for the whole process, shared by the
/// per-request containers of all requests.
public final class RequestCounter: Sendable {
    /// A random tag, so clients can see that every request met the same instance.
    public let instanceTag: UInt32 = .random(in: 1...UInt32.max)
    private let count = Mutex(0)

    /// Creates a counter at zero.
    public init() {}

    /// Counts one more request and returns the new total.
    public func next() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }

    /// The number of requests counted so far.
    public var total: Int {
        count.withLock { $0 }
    }
}
