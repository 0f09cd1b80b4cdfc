import FactoryKit
import NotesData
import NotesFeature

// The app's start-up: the implementation of every promise of the domain, once,
// before the first resolution. `register { }` and then a scope: one store for the app.
// swift-format-ignore: AvoidRetroactiveConformances
extension Container: @retroactive AutoRegistering {
    /// Registers the implementations of the domain's promises.
    public func autoRegister() {
        noteStore.register { InMemoryNoteStore() }.scope(.singleton)
    }
}

/// Prints notes as the app shows them.
final class NoteExporter: Sendable {
    func lines(of editor: NoteEditor) -> [String] {
        editor.notes.map { "\($0.written). \($0.title)" }
    }
}

// The app adds a factory to the feature's container.
extension NotesContainer {
    var exporter: Factory<NoteExporter> {
        self { NoteExporter() }
    }
}
