import FactoryKit
import NotesFeature

let editor = NotesContainer.shared.editor()
editor.write("Buy milk")
editor.write("Call Ann")
for line in NotesContainer.shared.exporter().lines(of: editor) {
    print(line)
}
