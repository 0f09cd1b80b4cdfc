import NotesDomain
import Synchronization

/// The note store the app registers: notes in memory.
public final class InMemoryNoteStore: NoteStore {
    private let notes = Mutex<[Note]>([])

    /// An empty store.
    public init() {}

    /// Keeps `note`.
    public func save(_ note: Note) {
        notes.withLock { $0.append(note) }
    }

    /// Every note kept, oldest first.
    public func all() -> [Note] {
        notes.withLock { $0 }
    }
}
