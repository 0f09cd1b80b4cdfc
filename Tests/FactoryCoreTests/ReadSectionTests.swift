import FactoryCore
import FactoryTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// The library's own misuse of read sections stops a debug build with a message,
// instead of a writer waiting forever for a section its own thread holds.

@Suite struct ReadSectionTests {
    @Test func aSectionEndsAndAWriterDoesNotWait() {
        let section = ReadSection.begin()
        section.end()
        #expect(finishes(1) { _ in ReadSection.waitForReaders() })
    }

    /// The section stays open until the writer is seen spinning on it (the
    /// library counts writers waiting for an open section) or has returned: a
    /// writer that does not wait returns while the section is open, whatever the
    /// machine's speed. The writer itself records whether the section had ended
    /// when it returned. In a process of its own: in the test run, every writer of
    /// every test waits for every open section, so another test's writer could be
    /// the one counted.
    #if EXIT_TESTS
    @Test func aWriterWaitsForAnOpenSectionOfAnotherThread() async {
        await #expect(processExitsWith: .success) {
            let entered = Signal()
            let leave = Signal()
            let ending = Signal()
            let left = Signal()
            let open = Collector<ReadSection>()
            startThread {
                let section = ReadSection.begin()
                open.append(section)
                entered.raise()
                leave.wait()
                ending.raise()
                section.end()
                left.raise()
            }
            guard entered.wait(), let section = open.values.first else {
                Issue.record("the reader never entered its section")
                return
            }
            let writing = Signal()
            let waited = Signal()
            let endedFirst = Collector<Bool>()
            startThread {
                writing.raise()
                ReadSection.waitForReaders()
                endedFirst.append(ending.isRaised)
                waited.raise()
            }
            // This process's only writer is the one above.
            #expect(
                poll { waited.isRaised || (writing.isRaised && section.waitingWriters == 1) },
                "the writer neither waited nor returned")
            #expect(!waited.isRaised, "the writer returned while another thread's section was open")
            leave.raise()
            #expect(left.wait(), "the reader never left its section")
            #expect(waited.wait(), "the writer kept waiting after the section ended")
            #expect(endedFirst.values == [true], "the writer returned before the section ended")
        }
    }
    #endif

    /// `FACTORY_READ_BARRIER=fence` forces the full-fence entry, checked in a
    /// process of its own, where the variable is set before the first section.
    #if EXIT_TESTS
    @Test func fenceInTheEnvironmentForcesTheFullFence() async {
        await #expect(processExitsWith: .success) {
            setenv("FACTORY_READ_BARRIER", "fence", 1)
            let section = ReadSection.begin()
            section.end()
            exit(ReadSection.usesAsymmetricBarrier ? 1 : 0)
        }
    }
    #endif

    #if !os(Linux)
    @Test func onlyLinuxHasTheAsymmetricBarrier() {
        #expect(!ReadSection.usesAsymmetricBarrier, "membarrier exists on Linux only")
    }
    #endif

    /// CI runs the suite once with `FACTORY_READ_BARRIER=fence` and once without,
    /// and says which barrier it expects through `FACTORY_EXPECT_READ_BARRIER`,
    /// so a switch that stopped working, or a machine that silently lost
    /// membarrier, fails here. Without that variable there is nothing to
    /// compare with: the test is skipped, not passed.
    @Test(.enabled(if: environment("FACTORY_EXPECT_READ_BARRIER") != nil, "CI sets FACTORY_EXPECT_READ_BARRIER"))
    func theBarrierIsTheOneCIExpects() throws {
        let expected = try #require(environment("FACTORY_EXPECT_READ_BARRIER"))
        #expect(["membarrier", "fence"].contains(expected), "FACTORY_EXPECT_READ_BARRIER=\(expected)")
        #expect(ReadSection.usesAsymmetricBarrier == (expected == "membarrier"))
    }

    /// A reader checks, inside its sections, the canary of the object it loaded;
    /// a writer replaces the object, waits for readers and only then poisons the
    /// old one's canary and frees it. One reader, so that the two threads run at
    /// once on two cores. A reader that finds a poisoned canary loaded
    /// an object whose unpublishing its section did not see, yet the writer did not
    /// wait for it: a missing barrier on either side. Runs whichever barrier this
    /// process chose (CI runs both).
    @Test func noReaderSeesAnObjectAWriterPoisoned() {
        let slot = CanarySlot()
        // Atomic words, not locks: a lock's fence between sections would hide a missing one.
        let stop = AtomicWord()
        let poisoned = AtomicWord()
        let reads = AtomicWord()
        let readerDone = AtomicWord()
        let reading = Signal()
        startThread {
            var count = 0
            var bad = 0
            // Once, before the loop: the signal's lock is a fence, which inside the
            // loop would hide a missing barrier.
            reading.raise()
            while stop.value == 0 {
                let section = ReadSection.begin()
                if !slot.currentIsAlive() { bad += 1 }
                section.end()
                count += 1
            }
            _ = poisoned.add(bad)
            _ = reads.add(count)
            readerDone.store(1)
        }
        // For a second, however many replacements that is: under membarrier each
        // costs microseconds while the reader runs, under a full fence far less. A
        // missing barrier on x86 (a reader's store still buffered while it loads)
        // failed this test in 4 of 5 one-second release runs. The writer starts
        // once the reader runs, so that the two race from the first replacement.
        #expect(reading.wait(), "the reader never started")
        #expect(
            finishes(1) { _ in
                let deadline = monotonicSeconds() + 1
                var replaced = 0
                while replaced < 100 || (replaced < 2_000_000 && monotonicSeconds() < deadline) {
                    slot.replace()
                    replaced += 1
                }
            })
        stop.store(1)
        #expect(poll { readerDone.value == 1 })
        #expect(poisoned.value == 0, "the reader saw \(poisoned.value) poisoned objects in \(reads.value) reads")
        #expect(reads.value > 0)
    }

    #if DEBUG
    #if EXIT_TESTS
    @Test func nestedSectionsStopADebugBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = ReadSection.begin()
            let inner = ReadSection.begin()
            inner.end()
            outer.end()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "FactoryCore: read-section misuse: a read section ended that was not open, or read sections nested"))
    }
    #endif

    #if EXIT_TESTS
    @Test func waitingForReadersInsideASectionStopsADebugBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let section = ReadSection.begin()
            ReadSection.waitForReaders()
            section.end()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains("FactoryCore: read-section misuse: a writer waited for readers inside its own read section"))
    }
    #endif
    #endif
}

private func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// A shared reference that readers load inside read sections, replaced by one
/// writer the way the library replaces a cache cell: exchange, wait, release.
private final class CanarySlot: @unchecked Sendable {
    // Sendable: `reference` is only ever loaded and exchanged atomically.
    private let reference = OwnedAtomicReference<Canary>(Canary())

    deinit {
        reference.exchange(nil)?.canary.store(Canary.poison)
    }

    /// Inside a read section: whether the object loaded now still has a live canary.
    func currentIsAlive() -> Bool {
        reference.load()?._withUnsafeGuaranteedRef { $0.canary.value == Canary.alive } ?? false
    }

    func replace() {
        let old = reference.exchange(Canary())
        ReadSection.waitForReaders()
        old?.canary.store(Canary.poison)
    }
}

private final class Canary: Sendable {
    static let alive = 0x5AFE
    static let poison = 0xDEAD
    let canary = AtomicWord(Canary.alive)
}
