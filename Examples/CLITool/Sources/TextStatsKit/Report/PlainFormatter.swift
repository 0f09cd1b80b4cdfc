/// Columns like `wc`, then the frequent words.
public struct PlainFormatter: ReportFormatting {
    /// Creates the formatter.
    public init() {}

    /// The report as aligned plain text.
    public func format(_ report: Report) -> String {
        var rows = report.files
        if rows.count > 1 {
            rows.append(report.total)
        }
        var lines = rows.map { stats in
            "\(pad(stats.lines)) \(pad(stats.words)) \(pad(stats.characters)) \(stats.name)"
        }
        let top = report.total.top(report.top)
        if !top.isEmpty {
            lines.append("top words: " + top.map { "\($0.word) \($0.count)" }.joined(separator: ", "))
        }
        lines.append("elapsed: \(report.elapsed.millisecondsText) ms")
        return lines.joined(separator: "\n")
    }

    private func pad(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, 7 - text.count)) + text
    }
}
