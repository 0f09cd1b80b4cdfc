/// Writes to standard output.
public struct StandardOutput: OutputWriting {
    /// Creates the writer.
    public init() {}

    public func write(_ text: String) {
        print(text)
    }
}
