import CFactoryAtomics

/// The reader's side of lock-free reads: a cache hit loads references between
/// ``begin()`` and ``end()`` and takes its own reference to what it returns
/// before ending.
///
/// A writer that unpublishes an object (a reset drops a cached instance, a
/// `register` replaces options) does so under its lock, unlocks, calls
/// ``waitForReaders()`` and only then releases the object. Read sections never
/// run user code and never nest, so the wait is short; the release, which may run
/// a `deinit`, happens with no library lock held.
@usableFromInline
package struct ReadSection {
    @usableFromInline let record: UnsafeMutableRawPointer

    /// Enters a read section on the calling thread.
    @inlinable
    package static func begin() -> ReadSection {
        ReadSection(record: cfactory_read_begin())
    }

    @inlinable
    init(record: UnsafeMutableRawPointer) {
        self.record = record
    }

    /// Leaves the read section.
    @inlinable
    package func end() {
        cfactory_read_end(record)
    }

    /// How many threads wait in ``waitForReaders()`` for this section to end,
    /// now: lets a test see that a writer waits, without guessing from how long
    /// it took. Any thread may read it while the section is open.
    package var waitingWriters: Int {
        cfactory_read_waiting_writers(record)
    }

    /// Whether read sections use the asymmetric barrier: entering one is a plain
    /// store, and a writer that waits for readers pays with one `membarrier(2)`
    /// for the whole process. `false` on platforms without it, where the kernel
    /// or a sandbox refuses it, and when the environment variable
    /// `FACTORY_READ_BARRIER` is `fence` at the first read section (CI runs the
    /// suite that way too): then every entry is a full fence. Chosen once per
    /// process.
    package static var usesAsymmetricBarrier: Bool {
        cfactory_read_barrier_kind() != 0
    }

    /// Returns once every read section open at the call has ended. Never call it
    /// inside a read section (debug builds stop the program).
    ///
    /// A section lasts nanoseconds unless its thread is descheduled inside it; the
    /// first time in the process that one keeps a writer waiting for over 100 ms,
    /// a line says so on standard output (the default logger's destination), so a
    /// stall shows instead of spinning silently.
    package static func waitForReaders() {
        if cfactory_wait_for_readers() != 0 {
            print(
                "FactoryCore: a writer (register, reset, pop or a cache replacement) waited over 100 ms for a "
                    + "lock-free reader to leave its read section; the reading thread was likely descheduled")
        }
    }
}

/// Objects unpublished under a lock, released later with no lock held.
///
/// Collect into it while holding the lock, then call ``release()`` after
/// unlocking: it waits for lock-free readers that may still use the objects and
/// then drops them, which runs any `deinit` they trigger outside every library lock.
///
/// The first three objects are kept inline: a `register` or reset usually drops
/// one to three, and an array would allocate on every one of them.
package struct Garbage {
    private var first: AnyObject?
    private var second: AnyObject?
    private var third: AnyObject?
    private var more: [AnyObject] = []

    package init() {}

    /// Keeps `object` until ``release()``.
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

    /// Keeps any value until ``release()``: a dictionary of per-parameter entries,
    /// an entry taken out of one, a replaced state. Their keys and closures may hold
    /// the last reference to a user's object, whose `deinit` must run unlocked.
    package mutating func keep<Value>(_ value: consuming Value) {
        add(Dropped(value))
    }

    /// Whether nothing was collected.
    package var isEmpty: Bool {
        first == nil
    }

    /// Waits for readers and drops the objects, last collected first. Call with no lock held.
    package mutating func release() {
        guard first != nil else { return }
        ReadSection.waitForReaders()
        // One at a time, each taken out before it is dropped: a deinit that re-enters
        // the library finds this bag in a valid state.
        while let object = more.popLast() {
            _ = object
        }
        _ = third.take()
        _ = second.take()
        _ = first.take()
    }
}

/// A value kept by ``Garbage`` until it is released.
private final class Dropped<Value> {
    let value: Value
    init(_ value: consuming Value) { self.value = value }
}
