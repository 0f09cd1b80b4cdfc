/// Counts of one input.
public struct FileStats: Sendable, Equatable {
    /// The input's name; `-` is standard input.
    public var name: String
    /// Newline characters, as `wc -l` counts them.
    public var lines = 0
    /// Runs of letters, digits and apostrophes.
    public var words = 0
    /// Characters (extended grapheme clusters).
    public var characters = 0
    /// How often each lowercased word occurs.
    public var frequencies: [String: Int] = [:]

    /// Creates empty counts for `name`.
    public init(name: String) {
        self.name = name
    }

    /// Adds `other`'s counts to these.
    public mutating func add(_ other: FileStats) {
        lines += other.lines
        words += other.words
        characters += other.characters
        frequencies.merge(other.frequencies, uniquingKeysWith: +)
    }

    /// The `count` most frequent words, ties in alphabetical order.
    public func top(_ count: Int) -> [(word: String, count: Int)] {
        frequencies
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(max(count, 0))
            .map { (word: $0.key, count: $0.value) }
    }
}
