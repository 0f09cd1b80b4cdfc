#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where threads sleep until a build they need finishes.
///
/// Made only when a second thread actually has to wait, so a build nobody waits
/// for allocates nothing. The mutex is held only around the flag, never while a
/// factory runs: the builder runs with no lock, and opens the point when done.
/// Every pthread call's result is checked, and the mutex is an error-checking
/// one in DEBUG builds, as ``FactoryLock``'s.
package final class WaitPoint: @unchecked Sendable {
    // Sendable because `isOpen` is only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var isOpen = false

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        PthreadMutex.initialize(mutex, owner: WaitPoint.self)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        check(pthread_cond_init(condition, nil), "condition init")
    }

    deinit {
        check(pthread_cond_destroy(condition), "condition destroy")
        check(pthread_mutex_destroy(mutex), "destroy")
        condition.deallocate()
        mutex.deallocate()
    }

    private func check(_ result: Int32, _ operation: String) {
        PthreadMutex.check(result, operation, owner: WaitPoint.self)
    }

    /// Runs `body` with the mutex held.
    private func withMutex<Result>(_ body: () -> Result) -> Result {
        check(pthread_mutex_lock(mutex), "lock")
        defer { check(pthread_mutex_unlock(mutex), "unlock") }
        return body()
    }

    /// Blocks until ``open()``.
    package func wait() {
        withMutex {
            while !isOpen { check(pthread_cond_wait(condition, mutex), "condition wait") }
        }
    }

    /// Whether ``open()`` was called: a waiter on an open point is not blocked.
    package var isOpened: Bool {
        withMutex { isOpen }
    }

    /// Wakes every waiter, now and later.
    package func open() {
        withMutex {
            isOpen = true
            check(pthread_cond_broadcast(condition), "condition broadcast")
        }
    }
}

/// Who waits for whom, across threads, to tell a deadlock from a wait.
///
/// A thread about to wait for another thread's build records the builder here
/// and follows the records: if the builder waits (directly or through others)
/// for this thread, the waits form a loop that can never end — the factories
/// depend on each other through two threads — and the program stops with both
/// chains instead of hanging. Only waiting threads are recorded, and a waiting
/// thread's resolution chain does not change, so the chains read here are stable.
package enum WaitGraph {
    private static let lock = FactoryLock(owner: WaitGraph.self)

    /// Records that `waiter` waits at `point` for `builder` to build `key`; stops
    /// the program if that closes a loop. Call with no other library lock held.
    ///
    /// A loop is a deadlock only if every wait point in it is still closed: a
    /// builder may finish (open its point) and start waiting for something else
    /// before the thread it released has woken, and that is no loop. Checked under
    /// this graph's lock, a loop of closed points cannot open: each point's builder
    /// is itself recorded as waiting at the next closed point.
    private static func beginWait(
        _ waiter: ResolutionContext, for builder: ResolutionContext, key: FactoryKey, at point: WaitPoint
    ) {
        let report = lock.withLock { () -> String? in
            waiter.waitingFor = builder
            waiter.waitingKey = key
            waiter.waitingAt = point
            guard let loop = WaitLoop.find(from: waiter, through: builder, next: { $0.waitingFor }),
                loop.allSatisfy({ $0.waitingAt?.isOpened == false })
            else { return nil }
            return describe(loop)
        }
        if let report { FactoryError.fail(.crossThreadCycle(report)) }
    }

    /// Waits at `point` for `builder` to build `key`, recorded in the graph for the
    /// whole wait, so a loop of waits is reported (see `beginWait`). Out of line: a waiting
    /// resolution is rare, and its locals would otherwise sit in the frame of every
    /// level of a nested resolution.
    @inline(never)
    package static func wait(
        _ waiter: ResolutionContext, for builder: ResolutionContext, key: FactoryKey, at point: WaitPoint
    ) {
        beginWait(waiter, for: builder, key: key, at: point)
        point.wait()
        endWait(waiter)
    }

    /// Records that `waiter` no longer waits.
    private static func endWait(_ waiter: ResolutionContext) {
        lock.withLock {
            waiter.waitingFor = nil
            waiter.waitingKey = nil
            waiter.waitingAt = nil
        }
    }

    /// One line per thread in the loop: its chain, then the factory it waits for
    /// and the thread building it.
    private static func describe(_ loop: [ResolutionContext]) -> String {
        loop.map { context in
            let chain = context.chainKeys.map(\.description)
            let waited = context.waitingKey.map(\.description) ?? "?"
            let builder = context.waitingFor.map { "thread \($0.threadID)" } ?? "?"
            return "thread \(context.threadID): " + (chain + [waited]).joined(separator: " > ") + " (being built by \(builder))"
        }.joined(separator: "; ")
    }
}

/// Finding a loop among waits, for ``WaitGraph`` (threads) and `AsyncWaitGraph` (tasks).
package enum WaitLoop {
    /// The waiters from `waiter` through `first` (what `waiter` waits for) and on
    /// along `next`, when they lead back to `waiter`; `nil` when they end, or run
    /// into a loop that does not pass through `waiter` (that loop is reported by
    /// whoever closed it).
    package static func find<Waiter: AnyObject>(
        from waiter: Waiter, through first: Waiter?, next: (Waiter) -> Waiter?
    ) -> [Waiter]? {
        var loop = [waiter]
        var node = first
        while let current = node {
            if current === waiter { return loop }
            if loop.contains(where: { $0 === current }) { return nil }
            loop.append(current)
            node = next(current)
        }
        return nil
    }
}
