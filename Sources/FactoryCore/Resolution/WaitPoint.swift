#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where threads sleep until a build they need finishes; made only when a thread must wait, so
/// an unwaited build allocates nothing. The mutex guards only the flag, never a running factory.
/// Every pthread result is checked; the mutex is error-checking in DEBUG, as ``FactoryLock``'s.
package final class WaitPoint: @unchecked Sendable {
    // Sendable: `isOpen` is only touched with `mutex` held.
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

    private func withMutex<Result>(_ body: () -> Result) -> Result {
        check(pthread_mutex_lock(mutex), "lock")
        defer { check(pthread_mutex_unlock(mutex), "unlock") }
        return body()
    }

    package func wait() {
        withMutex {
            while !isOpen { check(pthread_cond_wait(condition, mutex), "condition wait") }
        }
    }

    package var isOpened: Bool { withMutex { isOpen } }  // a waiter on an open point is not blocked

    /// Wakes every waiter, now and later.
    package func open() {
        withMutex {
            isOpen = true
            check(pthread_cond_broadcast(condition), "condition broadcast")
        }
    }
}

/// Who waits for whom across threads, to tell a deadlock from a wait: a loop of waits can never
/// end, so the program stops naming every chain instead of hanging. Only waiting threads are
/// recorded, and a waiting thread's chain does not change, so the chains read here are stable.
package enum WaitGraph {
    private static let lock = FactoryLock(owner: WaitGraph.self)

    /// Stops the program if this closes a loop; no other library lock held. A loop is a deadlock only if every point in
    /// it is closed (a builder may open its point and wait elsewhere before its waiter wakes); under this lock a loop
    /// of closed points cannot open, as each builder is itself recorded waiting at the next.
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

    /// Recorded for the whole wait. Out of line: waiting is rare, and its locals would otherwise
    /// sit in every nested resolution's frame.
    @inline(never)
    package static func wait(
        _ waiter: ResolutionContext, for builder: ResolutionContext, key: FactoryKey, at point: WaitPoint
    ) {
        beginWait(waiter, for: builder, key: key, at: point)
        point.wait()
        endWait(waiter)
    }

    private static func endWait(_ waiter: ResolutionContext) {
        lock.withLock {
            waiter.waitingFor = nil
            waiter.waitingKey = nil
            waiter.waitingAt = nil
        }
    }

    /// Per thread: its chain, the factory it waits for, and the thread building it.
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
    /// The waiters from `waiter` through `first` along `next`, if they lead back to `waiter`; `nil`
    /// otherwise (a loop not through `waiter` is reported by whoever closed it).
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
