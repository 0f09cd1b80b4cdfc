import FactoryCore
import FactoryTestSupport
import Testing

// The library's own misuse of read sections stops a debug build with a message,
// instead of a writer waiting forever for a section its own thread holds.

@Suite struct ReadSectionTests {
    @Test func aSectionEndsAndAWriterDoesNotWait() {
        let section = ReadSection.begin()
        section.end()
        #expect(finishes(1) { _ in ReadSection.waitForReaders() })
    }

    /// The writer signals just before it waits, and the section stays open until
    /// 50 ms after that (or until the writer returns): a writer that does not wait
    /// returns while the section is open whatever the machine's speed, as the
    /// start of its thread no longer counts against the 50 ms. The writer itself
    /// records whether the section had ended when it returned.
    @Test func aWriterWaitsForAnOpenSectionOfAnotherThread() {
        let entered = Signal()
        let leave = Signal()
        let ending = Signal()
        let left = Signal()
        startThread {
            let section = ReadSection.begin()
            entered.raise()
            leave.wait()
            ending.raise()
            section.end()
            left.raise()
        }
        #expect(entered.wait())
        let writing = Signal()
        let waited = Signal()
        let endedFirst = Collector<Bool>()
        startThread {
            writing.raise()
            ReadSection.waitForReaders()
            endedFirst.append(ending.isRaised)
            waited.raise()
        }
        #expect(writing.wait())
        #expect(!waited.wait(upTo: 0.05), "the writer returned while another thread's section was open")
        leave.raise()
        #expect(left.wait())
        #expect(waited.wait())
        #expect(endedFirst.values == [true], "the writer returned before the section ended")
    }

    #if DEBUG
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
}
