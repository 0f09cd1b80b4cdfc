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
}
