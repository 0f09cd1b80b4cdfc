import FactoryKit
import NotesDomain

/// The notes feature's own container. The app extends it too (`NotesContainer.exporter`).
public final class NotesContainer: SharedContainer {
    /// The one instance.
    public static let shared = NotesContainer()
    /// Its registrations and caches.
    public let manager = ContainerManager()
}

/// Writes notes: stamps each with the clock and keeps it in the store.
public final class NoteEditor: Sendable {
    let store: (any NoteStore)?
    let clock: any Clock

    init(store: (any NoteStore)?, clock: any Clock) {
        self.store = store
        self.clock = clock
    }

    /// Writes a note titled `title`; `false` when there is nowhere to keep it.
    @discardableResult
    public func write(_ title: String) -> Bool {
        guard let store else { return false }
        store.save(Note(title: title, written: clock.now()))
        return true
    }

    /// Every note, oldest first.
    public var notes: [Note] {
        store?.all() ?? []
    }
}

extension NotesContainer {
    /// The editor, resolving the domain's store and clock from `Container.shared`.
    public var editor: Factory<NoteEditor> {
        self { NoteEditor(store: Container.shared.noteStore(), clock: Container.shared.clock()) }
    }
}
