import CFactoryAtomics

/// One machine word, read and written only through C11 atomic operations.
///
/// It lives in its own allocation so that its address never moves, which the
/// atomic operations need; a class's stored property has no stable address.
@usableFromInline
package final class AtomicWord: @unchecked Sendable {
    // Sendable because every access to `storage` is an atomic operation.
    @usableFromInline let storage: UnsafeMutablePointer<Int>

    package init(_ initial: Int = 0) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: initial)
    }

    deinit {
        storage.deallocate()
    }

    /// The current value (acquire).
    @inlinable
    package var value: Int {
        cfactory_atomic_load(storage)
    }

    /// Replaces the value (release).
    @inlinable
    package func store(_ newValue: Int) {
        cfactory_atomic_store(storage, newValue)
    }

    /// Adds `delta` and returns the previous value.
    @discardableResult
    package func add(_ delta: Int) -> Int {
        cfactory_atomic_fetch_add(storage, delta)
    }

    /// Replaces `expected` with `desired` if it is the current value; returns whether it did.
    package func compareExchange(expected: Int, desired: Int) -> Bool {
        cfactory_atomic_compare_exchange(storage, expected, desired)
    }
}

/// A strong reference to an object that readers load without a lock.
///
/// Writers replace it while holding the lock that owns it and receive the old
/// object, which they must keep alive until readers are done with it (see
/// ``ReadSection``). Readers load it inside a read section and use it without
/// retaining it.
@usableFromInline
package struct AtomicReference<Object: AnyObject> {
    /// The word holding `Unmanaged<Object>.toOpaque()` retained, or 0 for nil.
    @usableFromInline let word: UnsafeMutablePointer<Int>

    /// A reference in `word`, which must hold 0 or a retained pointer and outlive this value.
    @inlinable
    package init(word: UnsafeMutablePointer<Int>) {
        self.word = word
    }

    /// The current object, unretained: only valid inside a read section, or with
    /// the owning lock held.
    @inlinable
    package func load() -> Unmanaged<Object>? {
        let bits = cfactory_atomic_load(word)
        guard bits != 0 else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    /// Publishes `object` and returns the one it replaces, whose reference the
    /// caller now owns.
    @discardableResult
    package func exchange(_ object: Object?) -> Object? {
        let bits = object.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        let old = cfactory_atomic_exchange(word, bits)
        guard old != 0 else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: old)!).takeRetainedValue()
    }
}

/// An ``AtomicReference`` that owns its word: allocated with it, and on its
/// owner's `deinit` the reference it still holds is released and the word freed.
/// A stored property of the class whose lock guards the writers, so no class
/// pairs an allocation and a release by hand.
@usableFromInline
package struct OwnedAtomicReference<Object: AnyObject>: ~Copyable {
    /// The word holding `Unmanaged<Object>.toOpaque()` retained, or 0 for nil.
    @usableFromInline let word: UnsafeMutablePointer<Int>

    /// A reference holding `initial`, or nothing.
    package init(_ initial: Object? = nil) {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
        if let initial { AtomicReference<Object>(word: word).exchange(initial) }
    }

    deinit {
        _ = AtomicReference<Object>(word: word).exchange(nil)
        word.deallocate()
    }

    /// The current object, unretained; see ``AtomicReference/load()``.
    @inlinable
    package func load() -> Unmanaged<Object>? {
        AtomicReference<Object>(word: word).load()
    }

    /// Publishes `object` and returns the one it replaces; see ``AtomicReference/exchange(_:)``.
    @discardableResult
    package func exchange(_ object: Object?) -> Object? {
        AtomicReference<Object>(word: word).exchange(object)
    }

    /// Publishes `object` if nothing is published yet, for a reference set once
    /// and never replaced; `false`, keeping nothing of `object`, if one was.
    package func publishOnce(_ object: Object) -> Bool {
        let bits = Int(bitPattern: Unmanaged.passRetained(object).toOpaque())
        if cfactory_atomic_compare_exchange(word, 0, bits) { return true }
        Unmanaged.passUnretained(object).release()
        return false
    }
}

// Sendable when its object is: the word is only read and written atomically.
extension OwnedAtomicReference: @unchecked Sendable where Object: Sendable {}
