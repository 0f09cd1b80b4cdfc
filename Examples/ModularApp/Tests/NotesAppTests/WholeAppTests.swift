import FactoryTesting
import NotesDomain
import NotesFeature
import Testing

/// The whole app, as it runs: its `autoRegister()` applied, every module's factories.
@Suite(.container) struct WholeAppTests {
    @Test func everyFactoryOfEveryModuleResolves() {
        let report = FactoryCatalog.notesAppTests.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.modules == ["NotesApp", "NotesDomain", "NotesFeature"])
        // One graph of the app: the feature's editor resolves the domain's store and clock.
        let mermaid = report.mermaid()
        #expect(mermaid.contains("subgraph module_NotesFeature[\"NotesFeature\"]"), "\(mermaid)")
        #expect(mermaid.contains("n_NotesContainer_editor_NoteEditor_ --> n_Container_noteStore_Optional_NoteStore__"))
    }

    @Test func theAppKeepsNotesInOneStore() {
        NotesContainer.shared.editor().write("first")
        NotesContainer.shared.editor().write("second")
        #expect(NotesContainer.shared.editor().notes.map(\.title) == ["first", "second"])
    }
}

/// The feature alone, with a mock for what the domain promised.
@Suite struct EditorTests {
    @Test(.container { $0.noteStore.register { MockNoteStore() } })
    func writesStampedNotes() {
        let editor = NotesContainer.shared.editor()
        #expect(editor.write("hello"))
        #expect(editor.notes == [Note(title: "hello", written: 1)])
    }
}

final class MockNoteStore: NoteStore {
    private let saved = LockedNotes()

    func save(_ note: Note) {
        saved.append(note)
    }

    func all() -> [Note] {
        saved.all
    }
}
