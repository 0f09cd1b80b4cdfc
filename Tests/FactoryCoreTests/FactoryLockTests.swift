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

    @Test func atomicFlagsSetAndClearBitsIndependently() {
        let flags = AtomicFlags(0)
        runOnThreads(4) { index in
            for _ in 0..<1_000 {
                flags.set(1 << index, true)
            }
        }
        #expect(flags.value == 0b1111)
        flags.set(0b0101, false)
        #expect(flags.value == 0b1010)
    }
}
