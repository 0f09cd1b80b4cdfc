import NotesDomain
import Synchronization

/// Notes behind a lock, for the mock store.
final class LockedNotes: Sendable {
    private let notes = Mutex<[Note]>([])

    func append(_ note: Note) {
        notes.withLock { $0.append(note) }
    }

    var all: [Note] {
        notes.withLock { $0 }
    }
}
