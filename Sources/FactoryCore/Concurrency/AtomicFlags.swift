import CFactoryAtomics

/// A word of bit flags read without a lock on the resolution path.
///
/// Writers change flags while holding the owner's ``FactoryLock`` so that a
/// flag and the state it summarises move together; readers only load.
@usableFromInline
package final class AtomicFlags: @unchecked Sendable {
    // Sendable because every access goes through C11 atomic operations.
    @usableFromInline let storage: UnsafeMutablePointer<Int>

    package init(_ initial: Int = 0) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: initial)
    }

    deinit {
        storage.deallocate()
    }

    /// The current flags (acquire ordering).
    @inlinable
    package var value: Int {
        cfactory_atomic_load(storage)
    }

    /// Replaces every flag at once (release ordering).
    @inline(__always)
    package func store(_ newValue: Int) {
        cfactory_atomic_store(storage, newValue)
    }

    /// Sets or clears the bits in `mask`.
    package func set(_ mask: Int, _ on: Bool) {
        while true {
            let old = value
            let new = on ? (old | mask) : (old & ~mask)
            if old == new || cfactory_atomic_compare_exchange(storage, old, new) { return }
        }
    }

    /// Atomically replaces `expected` with `desired`; returns whether it did.
    package func compareExchange(expected: Int, desired: Int) -> Bool {
        cfactory_atomic_compare_exchange(storage, expected, desired)
    }

    /// Adds `delta` and returns the previous value.
    @discardableResult
    package func add(_ delta: Int) -> Int {
        cfactory_atomic_fetch_add(storage, delta)
    }
}
