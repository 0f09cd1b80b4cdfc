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

    @Test func aWriterWaitsForAnOpenSectionOfAnotherThread() {
        let entered = Signal()
        let leave = Signal()
        let left = Signal()
        startThread {
            let section = ReadSection.begin()
            entered.raise()
            leave.wait()
            section.end()
            left.raise()
        }
        #expect(entered.wait())
        let waited = Signal()
        startThread {
            ReadSection.waitForReaders()
            waited.raise()
        }
        // The writer cannot return before the section ends.
        #expect(!waited.wait(upTo: 0.05))
        leave.raise()
        #expect(left.wait())
        #expect(waited.wait())
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
