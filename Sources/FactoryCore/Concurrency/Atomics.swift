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

/// A strong reference that readers load without a lock, inside a ``ReadSection``, unretained. Writers exchange it
/// under the owning lock and keep the old object alive until readers are done. It owns its word (the retained
/// pointer, or 0 for `nil`), releasing the reference and freeing the word on `deinit`.
@usableFromInline
package struct OwnedAtomicReference<Object: AnyObject>: ~Copyable {
    @usableFromInline let word: UnsafeMutablePointer<Int>

    package init(_ initial: Object? = nil) {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
        if let initial { exchange(initial) }
    }

    deinit {
        _ = exchange(nil)
        word.deallocate()
    }

    /// Unretained: valid only inside a read section or with the owning lock held.
    @inlinable
    package func load() -> Unmanaged<Object>? { Self.load(word) }

    /// ``load()`` of a word holding 0 or a retained pointer.
    @inlinable
    package static func load(_ word: UnsafeMutablePointer<Int>) -> Unmanaged<Object>? {
        let bits = cfactory_atomic_load(word)
        guard bits != 0 else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    /// Returns the replaced object; the caller now owns its reference.
    @discardableResult
    package func exchange(_ object: Object?) -> Object? {
        var bits = 0
        if let object { bits = Int(bitPattern: Unmanaged.passRetained(object).toOpaque()) }
        let old = cfactory_atomic_exchange(word, bits)
        guard old != 0 else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: old)!).takeRetainedValue()
    }

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

/// The reader's side of lock-free reads: a cache hit loads references between ``begin()`` and
/// ``end()`` and retains what it returns before ending. A writer unpublishes under its lock,
/// unlocks, calls ``waitForReaders()``, then releases, so any `deinit` runs with no library lock
/// held. Sections never run user code and never nest, so the wait is short.
@usableFromInline
package struct ReadSection {
    @usableFromInline let record: UnsafeMutableRawPointer

    @inlinable
    package static func begin() -> ReadSection {
        ReadSection(record: cfactory_read_begin())
    }

    @inlinable
    init(record: UnsafeMutableRawPointer) {
        self.record = record
    }

    @inlinable
    package func end() {
        cfactory_read_end(record)
    }

    /// Threads now waiting in ``waitForReaders()`` for this section: lets a test see a writer
    /// wait without timing it. Any thread may read it while the section is open.
    package var waitingWriters: Int { cfactory_read_waiting_writers(record) }

    /// Whether entering a section is a plain store and a waiting writer pays one process-wide
    /// `membarrier(2)`. `false` where unavailable or refused, or if `FACTORY_READ_BARRIER=fence`
    /// at the first section (CI runs that way too): then every entry is a full fence. Chosen once.
    package static var usesAsymmetricBarrier: Bool { cfactory_read_barrier_kind() != 0 }

    /// Returns once every section open at the call has ended; never call it inside one (debug
    /// builds stop). The first wait over 100 ms in the process prints a line, so a stall shows.
    package static func waitForReaders() {
        if cfactory_wait_for_readers() != 0 {
            print(
                "FactoryCore: a writer (register, reset, pop or a cache replacement) waited over 100 ms for a "
                    + "lock-free reader to leave its read section; the reading thread was likely descheduled")
        }
    }
}

/// Objects unpublished under a lock: ``release()`` after unlocking waits for lock-free readers,
/// then drops them, so any `deinit` runs outside every library lock. Three are inline: a
/// `register` or reset usually drops one to three, and an array would allocate each time.
package struct Garbage {
    private var first: AnyObject?
    private var second: AnyObject?
    private var third: AnyObject?
    private var more: [AnyObject] = []

    package init() {}

    package mutating func add(_ object: AnyObject?) {
        guard let object else { return }
        if first == nil {
            first = object
        } else if second == nil {
            second = object
        } else if third == nil {
            third = object
        } else {
            more.append(object)
        }
    }

    /// Keeps any value (entries, a replaced state) whose keys or closures may hold the last
    /// reference to a user's object, whose `deinit` must run unlocked.
    package mutating func keep<Value>(_ value: consuming Value) { add(Dropped(value)) }

    package var isEmpty: Bool { first == nil }

    /// Call with no lock held. Drops last collected first.
    package mutating func release() {
        guard first != nil else { return }
        ReadSection.waitForReaders()
        // Each taken out before it drops, so a re-entrant deinit finds the bag valid.
        while let object = more.popLast() {
            _ = object
        }
        _ = third.take()
        _ = second.take()
        _ = first.take()
    }
}

private final class Dropped<Value> {
    let value: Value
    init(_ value: consuming Value) { self.value = value }
}
