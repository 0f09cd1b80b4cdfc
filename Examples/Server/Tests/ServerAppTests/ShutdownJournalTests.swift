import ServerApp
import Testing

/// The journal keeps the latest entries, in order, and counts the ones it dropped.
@Suite struct ShutdownJournalTests {
    @Test func keepsTheLatestEntriesInOrder() {
        let journal = ShutdownJournal(capacity: 3)
        for name in ["a", "b", "c", "d", "e"] {
            journal.record(name)
        }
        #expect(journal.entries == ["c", "d", "e"])
        #expect(journal.dropped == 2)
    }
}

extension LiveServerTests {
    /// Every request records its session's end; the process's journal stays bounded all the same.
    @Suite struct JournalGrowthTests {
        @Test func theJournalDoesNotGrowWithRequests() async throws {
            let journal = ShutdownJournal.shared
            let requests = journal.capacity + 5
            let droppedBefore = journal.dropped
            try await withLiveServer(logLevel: .warning) { client in
                for number in 1...requests {
                    let response = try await client.execute(
                        uri: "/whoami", method: .get, headers: [.xRequestID: "many-\(number)"])
                    #expect(response.status == .ok)
                }
            }
            #expect(journal.entries.count == journal.capacity)
            #expect(journal.entries.last == "session many-\(requests)")
            #expect(journal.dropped >= droppedBefore + 5)
        }
    }
}
