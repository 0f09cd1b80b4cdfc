import Foundation
import Testing

/// Runs `body` on `count` real threads that start together, and waits for all of them.
///
/// Each thread waits at a barrier until every thread has arrived (see
/// ``finishes(_:within:stackSize:_:)``), so the bodies overlap as much as the
/// machine allows instead of running one after another the way a small thread
/// pool might run them. Every wait is bounded by `seconds`: threads that do not
/// finish by then (a deadlock) fail the running test and are left blocked, so a
/// hang never stops the test run.
public func runOnThreads(
    _ count: Int, within seconds: Double = watchdogBound, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Void
) {
    if !finishes(count, within: seconds, stackSize: 1 << 20, body) {
        Issue.record(
            "\(count) threads did not finish within \(formatted(seconds)) s: a deadlock", sourceLocation: sourceLocation)
    }
}

/// A counter safe to bump from many threads.
public final class Counter: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Creates a counter at zero.
    public init() {}

    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    /// The current count.
    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Collects values from many threads.
public final class Collector<Value>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var items: [Value] = []

    /// Creates an empty collector.
    public init() {}

    /// Appends `value`.
    public func append(_ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        items.append(value)
    }

    /// Everything appended so far, in order.
    public var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Sleeps the calling thread, to make a factory closure slow enough for threads to overlap.
public func pause(milliseconds: Int) {
    usleep(UInt32(milliseconds * 1000))
}

/// A barrier for threads that must race: each ``arriveAndWait(upTo:)`` blocks
/// until `count` threads have arrived, then all of them go on together. It
/// can be passed again and again, one round after another.
public final class Barrier: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0
    private var round = 0

    /// A barrier for `count` threads.
    public init(_ count: Int) {
        self.count = count
    }

    /// Blocks until `count` threads have arrived in this round; returns `false`
    /// when `seconds` passed first (a thread never came: the round is broken).
    @discardableResult
    public func arriveAndWait(upTo seconds: Double = watchdogBound) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let mine = round
        arrived += 1
        if arrived == count {
            arrived = 0
            round += 1
            condition.broadcast()
            return true
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while round == mine {
            if !condition.wait(until: deadline) { return round != mine }
        }
        return true
    }
}
