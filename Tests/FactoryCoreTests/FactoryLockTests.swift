import FactoryTestSupport
import Testing

@testable import FactoryCore

@Suite struct FactoryLockTests {
    @Test func lockedBoxSerializesUpdatesFromManyThreads() {
        let box = LockedBox(0)
        runOnThreads(8) { _ in
            for _ in 0..<10_000 { box.withLock { $0 += 1 } }
        }
        #expect(box.withLock { $0 } == 80_000)
    }

    /// What `exchange` replaces is released after unlocking: a `deinit` that reads
    /// the same box (as one reading `Container.shared` does, without the
    /// `SwiftConcurrency` trait) does not deadlock on it.
    @Test func aValueThatExchangeReplacesIsReleasedWithTheLockFree() {
        let box = LockedBox<ReadsTheBoxOnDeinit?>(nil)
        let seen = Counter()
        let finished = finishes(1) { _ in
            _ = box.exchange(ReadsTheBoxOnDeinit(box: box, seen: seen))
            _ = box.exchange(nil)
        }
        #expect(finished)
        #expect(seen.value == 1)
    }

    @Test func atomicWordLosesNoUpdate() {
        let word = AtomicWord(0)
        runOnThreads(4) { index in
            for _ in 0..<1_000 {
                while true {
                    let old = word.value
                    if word.compareExchange(expected: old, desired: old | (1 << index)) { break }
                }
                word.add(1 << 8)
            }
        }
        #expect(word.value & 0xFF == 0b1111)
        #expect(word.value >> 8 == 4_000)
    }

    #if EXIT_TESTS && DEBUG && !canImport(Darwin)
    /// In a DEBUG build a lock is an error-checking mutex: a thread that takes a
    /// lock it holds stops with a message naming the lock's owner, where a release
    /// build would hang.
    @Test func aReenteredLockStopsNamingItsOwner() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let lock = FactoryLock(owner: ContainerManager.self)
            lock.withLock { lock.lock() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "FactoryCore: the lock of a ContainerManager was taken again by the thread that holds it: code run under "
                    + "that lock re-entered it (in a release build this thread would hang)"))
    }

    /// A lock released by a thread that does not hold it stops a DEBUG build,
    /// naming the owner: the error-checking mutex reports it, and every pthread
    /// result is checked.
    @Test func anUnlockByAnotherThreadStopsNamingTheOwner() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let lock = FactoryLock(owner: GlobalStorage.self)
            lock.lock()
            runOnThreads(1) { _ in lock.unlock() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("FactoryCore: the lock of a GlobalStorage: unlocked by a thread that does not hold it"))
    }
    #endif
}

/// Reads the box that held it when it goes.
private final class ReadsTheBoxOnDeinit: Sendable {
    let box: LockedBox<ReadsTheBoxOnDeinit?>
    let seen: Counter
    init(box: LockedBox<ReadsTheBoxOnDeinit?>, seen: Counter) {
        self.box = box
        self.seen = seen
    }
    deinit {
        if box.withLock({ $0 == nil }) { seen.increment() }
    }
}
