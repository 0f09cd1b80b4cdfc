/// Counts lines, words and characters of a text.
public struct TextAnalyzer: Sendable {
    /// Creates the analyzer.
    public init() {}

    /// The counts of `text`, labelled `name`.
    public func analyze(_ text: String, name: String) -> FileStats {
        var stats = FileStats(name: name)
        var word = ""
        func endWord() {
            guard !word.isEmpty else { return }
            stats.words += 1
            stats.frequencies[word.lowercased(), default: 0] += 1
            word = ""
        }
        for character in text {
            stats.characters += 1
            if character.isNewline {
                stats.lines += 1
            }
            if character.isLetter || character.isNumber || character == "'" {
                word.append(character)
            } else {
                endWord()
            }
        }
        endWord()
        return stats
    }
}
