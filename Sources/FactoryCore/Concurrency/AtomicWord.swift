import CFactoryAtomics

/// One machine word accessed only through C11 atomics, in its own allocation:
/// atomics need an address that never moves, which a class's stored property lacks.
@usableFromInline
package final class AtomicWord: @unchecked Sendable {
    // Sendable: every access to `storage` is atomic.
    @usableFromInline let storage: UnsafeMutablePointer<Int>

    package init(_ initial: Int = 0) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: initial)
    }

    deinit { storage.deallocate() }

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

    @discardableResult
    package func add(_ delta: Int) -> Int { cfactory_atomic_fetch_add(storage, delta) }  // returns the previous value

    package func compareExchange(expected: Int, desired: Int) -> Bool {
        cfactory_atomic_compare_exchange(storage, expected, desired)
    }
}

/// A strong reference that readers load without a lock, inside a ``ReadSection``, unretained.
/// Writers exchange it under the owning lock and keep the old object alive until readers are done.
@usableFromInline
package struct AtomicReference<Object: AnyObject> {
    /// The word holding `Unmanaged<Object>.toOpaque()` retained, or 0 for nil.
    @usableFromInline let word: UnsafeMutablePointer<Int>

    /// `word` must hold 0 or a retained pointer and outlive this value.
    @inlinable
    package init(word: UnsafeMutablePointer<Int>) {
        self.word = word
    }

    /// Unretained: valid only inside a read section or with the owning lock held.
    @inlinable
    package func load() -> Unmanaged<Object>? {
        let bits = cfactory_atomic_load(word)
        guard bits != 0 else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    /// Returns the replaced object; the caller now owns its reference.
    @discardableResult
    package func exchange(_ object: Object?) -> Object? {
        let bits = object.map { Int(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        let old = cfactory_atomic_exchange(word, bits)
        guard old != 0 else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: old)!).takeRetainedValue()
    }
}

/// An ``AtomicReference`` that owns its word, releasing the reference and freeing the word
/// on `deinit`, so no class pairs an allocation and a release by hand.
@usableFromInline
package struct OwnedAtomicReference<Object: AnyObject>: ~Copyable {
    @usableFromInline let word: UnsafeMutablePointer<Int>

    package init(_ initial: Object? = nil) {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
        if let initial { AtomicReference<Object>(word: word).exchange(initial) }
    }

    deinit {
        _ = AtomicReference<Object>(word: word).exchange(nil)
        word.deallocate()
    }

    /// Unretained; see ``AtomicReference/load()``.
    @inlinable
    package func load() -> Unmanaged<Object>? {
        AtomicReference<Object>(word: word).load()
    }

    @discardableResult
    package func exchange(_ object: Object?) -> Object? { AtomicReference<Object>(word: word).exchange(object) }

    /// Publishes `object` only if nothing is published yet; `false`, keeping nothing of it, if one was.
    package func publishOnce(_ object: Object) -> Bool {
        let bits = Int(bitPattern: Unmanaged.passRetained(object).toOpaque())
        if cfactory_atomic_compare_exchange(word, 0, bits) { return true }
        Unmanaged.passUnretained(object).release()
        return false
    }
}

// Sendable when its object is: the word is only accessed atomically.
extension OwnedAtomicReference: @unchecked Sendable where Object: Sendable {}
