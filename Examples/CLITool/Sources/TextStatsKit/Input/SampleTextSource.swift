/// The same short text for every input name.
public struct SampleTextSource: TextSource {
    /// The text every read returns.
    public static let text = """
        The quick brown fox jumps over the lazy dog.
        The dog sleeps; the fox runs away.

        """

    /// Creates the source.
    public init() {}

    /// Returns the built-in sample text, whatever the path.
    public func read(_ name: String) throws -> String {
        Self.text
    }
}
