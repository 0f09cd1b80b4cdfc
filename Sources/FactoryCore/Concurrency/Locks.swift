#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock every Factory layer guards its state with: `os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere, in its own allocation because neither primitive may move.
/// Not recursive; in DEBUG the mutex is error-checking, so re-entry stops with the owner's name
/// instead of hanging, and every call's result is checked in every build.
@usableFromInline
package final class FactoryLock: @unchecked Sendable {
    // Sendable: the only state is the primitive, made to be shared, and the immutable owner.
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    @usableFromInline let owner: Any.Type  // named when the lock is misused

    package init(owner: Any.Type) {
        self.owner = owner
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        PthreadMutex.initialize(primitive, owner: owner)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        PthreadMutex.check(pthread_mutex_destroy(primitive), "destroy", owner: owner)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inlinable
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        let result = pthread_mutex_lock(primitive)
        if result != 0 { PthreadMutex.fail(result, "lock", owner: owner) }
        #endif
    }

    /// Must be called on the thread that acquired the lock.
    @inlinable
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        let result = pthread_mutex_unlock(primitive)
        if result != 0 { PthreadMutex.fail(result, "unlock", owner: owner) }
        #endif
    }

    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// This lock, then `inner` when there is one: two locks taken in their one order.
    @inlinable
    package func withLock<Result>(then inner: FactoryLock?, _ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        guard let inner else { return try body() }
        return try inner.withLock(body)
    }
}

/// Checks for the library's `pthread_mutex_t`s (``FactoryLock`` off Apple platforms, ``WaitPoint`` everywhere).
@usableFromInline
package enum PthreadMutex {
    /// Error-checking in DEBUG, so re-taking it on the holding thread fails instead of hanging.
    package static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, owner: Any.Type) {
        var attributes = pthread_mutexattr_t()
        check(pthread_mutexattr_init(&attributes), "attribute init", owner: owner)
        #if DEBUG
        check(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "attribute settype", owner: owner)
        #endif
        check(pthread_mutex_init(mutex, &attributes), "init", owner: owner)
        check(pthread_mutexattr_destroy(&attributes), "attribute destroy", owner: owner)
    }

    /// Stops the program unless `result`, what a pthread call returned, is 0.
    package static func check(_ result: Int32, _ operation: String, owner: Any.Type) {
        if result != 0 { fail(result, operation, owner: owner) }
    }

    /// Stops at once, without the test hooks of ``FactoryError/fail(_:file:line:)``, which may take locks.
    @usableFromInline @inline(never)
    package static func fail(_ result: Int32, _ operation: String, owner: Any.Type) -> Never {
        let name = String(describing: owner)
        let error: FactoryError
        switch result {
        case EDEADLK: error = .lockReentered(owner: name)
        case EPERM: error = .lockMisused("unlocked by a thread that does not hold it", owner: name)
        default: error = .lockMisused("pthread mutex \(operation) failed with error \(result)", owner: name)
        }
        fatalError(error.message)
    }
}

/// A value only read or written with its lock held.
@usableFromInline
package final class LockedBox<Value>: @unchecked Sendable {
    // Sendable: `value` is only touched inside `withLock`, under `lock`.
    // Inlinable, so that other modules of the package use it specialized.
    @usableFromInline let lock = FactoryLock(owner: LockedBox<Value>.self)
    @usableFromInline var value: Value

    package init(_ value: Value) { self.value = value }

    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Returns the replaced value for the caller to drop after unlocking: dropping it under the
    /// lock would run a `deinit` (user code) with the lock held.
    package func exchange(_ newValue: Value) -> Value {
        withLock { value in
            let old = value
            value = newValue
            return old
        }
    }
}

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
