#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock every Factory layer guards its state with.
///
/// `os_unfair_lock` on Apple platforms, a `pthread_mutex_t` elsewhere. The
/// primitive lives in its own allocation so its address never moves, which
/// both primitives require. The lock is not recursive: never call back into
/// code that may take the same lock while holding it. In DEBUG builds the
/// mutex is an error-checking one, so a thread that takes a lock it holds stops
/// with a message naming the lock's owner instead of hanging; every call's
/// result is checked in every build. (A `WaitPoint`'s mutex and condition
/// variable, where a thread sleeps until another's build ends, are the other
/// lock the library uses.)
@usableFromInline
package final class FactoryLock: @unchecked Sendable {
    // Sendable because the only state is the primitive itself, which exists to be
    // shared, and the immutable owner type.
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    /// The type whose state the lock guards, named when the lock is misused.
    @usableFromInline let owner: Any.Type

    /// A lock guarding state of `owner`, the type messages name.
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

    /// Acquires the lock, blocking until it is available.
    @inlinable
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        let result = pthread_mutex_lock(primitive)
        if result != 0 { PthreadMutex.fail(result, "lock", owner: owner) }
        #endif
    }

    /// Releases the lock; must be called on the thread that acquired it.
    @inlinable
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        let result = pthread_mutex_unlock(primitive)
        if result != 0 { PthreadMutex.fail(result, "unlock", owner: owner) }
        #endif
    }

    /// Runs `body` with the lock held.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The checks of the `pthread_mutex_t`s the library uses (``FactoryLock`` on
/// platforms other than Apple's, ``WaitPoint`` everywhere).
@usableFromInline
package enum PthreadMutex {
    /// Initializes `mutex`: an error-checking one in DEBUG builds, so that taking
    /// it again on the thread that holds it fails instead of hanging.
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

    /// Stops the program: the pthread `operation` on the lock of `owner` returned
    /// `result`. At once, without the test hooks of ``FactoryError/fail(_:file:line:)``,
    /// which may take locks themselves.
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

/// A value of type `Value` that is only read or written with its lock held.
package final class LockedBox<Value>: @unchecked Sendable {
    // Sendable because `value` is only touched inside `withLock`, under `lock`.
    private let lock = FactoryLock(owner: LockedBox<Value>.self)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Stores `newValue` and returns the value it replaces. The caller releases
    /// that after unlocking: dropping it under the lock would run its `deinit`
    /// (user code, for a container or an instance) with the lock held.
    package func exchange(_ newValue: Value) -> Value {
        withLock { value in
            let old = value
            value = newValue
            return old
        }
    }
}
