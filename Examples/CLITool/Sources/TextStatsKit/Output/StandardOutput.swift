/// Writes to standard output.
public struct StandardOutput: OutputWriting {
    /// Creates the writer.
    public init() {}

    /// Writes `text` to standard output.
    public func write(_ text: String) {
        print(text)
    }
}
