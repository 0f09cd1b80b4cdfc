/// Turns a ``Report`` into text.
public protocol ReportFormatting: Sendable {
    /// The report as text, without a trailing newline.
    func format(_ report: Report) -> String
}
