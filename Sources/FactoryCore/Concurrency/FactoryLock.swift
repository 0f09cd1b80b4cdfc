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
package final class LockedBox<Value>: @unchecked Sendable {
    // Sendable: `value` is only touched inside `withLock`, under `lock`.
    private let lock = FactoryLock(owner: LockedBox<Value>.self)
    private var value: Value

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
