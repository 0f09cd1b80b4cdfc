#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one mutual-exclusion primitive every Factory layer uses.
///
/// `os_unfair_lock` on Apple platforms, a `pthread_mutex_t` elsewhere. The
/// primitive lives in its own allocation so its address never moves, which
/// both primitives require. The lock is not recursive: never call back into
/// code that may take the same lock while holding it.
@usableFromInline
package final class FactoryLock: @unchecked Sendable {
    // Sendable because the only state is the primitive itself, which exists to be shared.
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    package init() {
        #if canImport(Darwin)
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(primitive, nil)
        precondition(result == 0, "FactoryLock: pthread_mutex_init failed (\(result))")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
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
        pthread_mutex_lock(primitive)
        #endif
    }

    /// Releases the lock; must be called on the thread that acquired it.
    @inlinable
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
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

/// A value of type `Value` that is only read or written with its lock held.
package final class LockedBox<Value>: @unchecked Sendable {
    // Sendable because `value` is only touched inside `withLock`, under `lock`.
    private let lock = FactoryLock()
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
