/// Somewhere to write text.
public protocol OutputWriting: Sendable {
    /// Writes `text` followed by a newline.
    func write(_ text: String)
}
