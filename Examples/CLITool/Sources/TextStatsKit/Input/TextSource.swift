/// Reads the text of a named input.
public protocol TextSource: Sendable {
    /// The whole text of `name`; `-` is standard input.
    func read(_ name: String) throws -> String
}
