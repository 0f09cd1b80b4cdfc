import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Overlaps a test arranges and checks. A contention test makes the overlap it names
// certain instead of likely after a pause: the work that must overlap waits until the
// overlap has happened (threads waiting at a build, reads blocked in a lazy property,
// tasks suspended on a build), checks it, and the test asserts that it did. When it
// does not come (threads ran one after another, a waiter did not wait), the wait ends
// at ``overlapBound``, far sooner than a watchdog's, the test fails naming what did not
// happen, and the work goes on so that whatever the test blocked is released.

/// How long a thread waits for an overlap it arranged before the test fails, in
/// seconds. The overlaps take milliseconds (threads reaching a build already running);
/// the bound allows for sanitizers on a busy machine and keeps a suite whose overlaps
/// never come (a broken build gate) within minutes.
///
/// A task waiting for tasks (``waitFor(_:upTo:until:)``) keeps the watchdog's bound:
/// the tasks it waits for run on the cooperative pool, whose threads the synchronous
/// tests running beside it block while they wait for their own threads, so a few
/// seconds there do not tell a missing overlap from a busy pool. Such a wait
/// suspends: it holds no thread, and blocks nothing else meanwhile.
public let overlapBound: Double = 3

/// The overlaps one test waits for, each checked once. The first that does not come
/// within ``overlapBound`` fails it; the waits after it end at once, so that a test
/// with many rounds or threads fails in one bound, not in one per wait.
public final class Overlaps: Sendable {
    private let outcomes = Collector<(String, Bool)>()
    private let missed = Counter()

    /// Creates a record with no overlap checked yet.
    public init() {}

    /// Waits until `condition` holds, up to ``overlapBound`` (none once an earlier wait
    /// failed); records and returns whether it held. `what` names the overlap.
    @discardableResult
    public func wait(_ what: String, until condition: () -> Bool) -> Bool {
        let held = missed.value == 0 ? poll(upTo: overlapBound, until: condition) : condition()
        if !held { missed.increment() }
        outcomes.append((what, held))
        return held
    }

    /// Records an overlap checked elsewhere (an async wait, a barrier).
    public func record(_ what: String, _ held: Bool) {
        if !held { missed.increment() }
        outcomes.append((what, held))
    }

    /// Whether a wait failed: later rounds of the test should stop.
    public var anyMissed: Bool { missed.value > 0 }

    /// How many overlaps were checked.
    public var count: Int { outcomes.values.count }

    /// Those that did not happen.
    public var missing: [String] { outcomes.values.filter { !$0.1 }.map(\.0) }

    /// Fails the running test unless exactly `count` overlaps were checked and all happened.
    public func expect(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(missing.isEmpty, "did not happen within \(formatted(overlapBound)) s: \(missing)", sourceLocation: sourceLocation)
        #expect(self.count == count, "\(self.count) overlaps checked, not \(count)", sourceLocation: sourceLocation)
    }
}

/// A meeting point for `count` threads inside the work a test runs: ``arrive()``
/// blocks until all have arrived, so that their work overlaps for certain. It is
/// passed once; when a thread does not come within ``overlapBound`` (the work ran one
/// after another), every arrival returns `false` from then on, at once.
public final class Rendezvous: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0
    private var broken = false

    /// A meeting point for `count` threads.
    public init(_ count: Int) {
        self.count = count
    }

    /// Blocks until `count` threads have arrived (`true`), or until ``overlapBound``
    /// passed or an earlier arrival gave up (`false`).
    public func arrive() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= count {
            condition.broadcast()
            return !broken
        }
        let deadline = Date(timeIntervalSinceNow: overlapBound)
        while arrived < count && !broken {
            if !condition.wait(until: deadline) {
                broken = arrived < count
                condition.broadcast()
            }
        }
        return !broken
    }
}

/// The calling thread's id for ``threadsAreBlocked(_:)``: its kernel thread id on
/// Linux, 0 elsewhere.
public func currentThreadID() -> Int32 {
    #if os(Linux)
    // `/proc/thread-self` links to `<pid>/task/<tid>`.
    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
    return Int32(link.split(separator: "/").last ?? "") ?? 0
    #else
    return 0
    #endif
}

/// Whether every thread of `ids` (``currentThreadID()``s of this process) is asleep
/// in the kernel, waiting (on a lock or a condition), rather than running or ready to
/// run: read from `/proc/self/task/<id>/stat` on Linux. A thread that has ended is not
/// blocked. Elsewhere the state is not read, and this returns `nil`.
///
/// A test uses it for a wait no count shows (a thread waiting for another's
/// `autoRegister()` or lazy property): once a thread has announced that it is about to
/// make the call and does nothing else before it, finding it asleep means it waits in
/// the call.
public func threadsAreBlocked(_ ids: [Int32]) -> Bool? {
    #if os(Linux)
    return ids.allSatisfy { id in
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // `pid (name) S ...`: the state follows the name, which may itself hold spaces and parentheses.
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "S" || state == "D"
    }
    #else
    return nil
    #endif
}

/// Threads that each make one call a test wants to see waiting: each calls
/// ``enter()`` just before the call and ``leave()`` after it. From inside the work
/// they wait for (a build, an `autoRegister()`), ``othersWaitInside(_:)`` tells whether
/// the others are in the call and waiting.
public final class Callers: Sendable {
    private let ids = Collector<Int32>()
    private let left = Counter()

    /// Creates a record with no caller.
    public init() {}

    /// Just before the call.
    public func enter() { ids.append(currentThreadID()) }

    /// Just after the call returned.
    public func leave() { left.increment() }

    /// How many callers returned.
    public var returned: Int { left.value }

    /// Whether `count` callers besides the calling thread (itself one of them) have
    /// entered the call, none has returned, and, on Linux, each of them is asleep in
    /// the kernel (``threadsAreBlocked(_:)``): waiting in the call. Elsewhere the last
    /// part is not known: they have entered and not returned.
    public func othersWaitInside(_ count: Int) -> Bool {
        let entered = ids.values
        guard entered.count == count + 1, left.value == 0 else { return false }
        let me = currentThreadID()
        return threadsAreBlocked(entered.filter { $0 != me }) ?? true
    }
}
