import ArgumentParser

/// What the report looks like.
public enum ReportFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Aligned columns for people.
    case plain
    /// One JSON object for scripts.
    case json
}

/// Everything `textstats` prints.
public struct Report: Sendable {
    /// One entry per input, in command-line order.
    public var files: [FileStats]
    /// How many frequent words to list.
    public var top: Int
    /// How long reading and counting took.
    public var elapsed: Duration

    /// The sum over all inputs.
    public var total: FileStats {
        files.reduce(into: FileStats(name: "total")) { $0.add($1) }
    }
}

/// Turns a ``Report`` into text.
public protocol ReportFormatting: Sendable {
    /// The report as text, without a trailing newline.
    func format(_ report: Report) -> String
}

/// Columns like `wc`, then the frequent words.
public struct PlainFormatter: ReportFormatting {
    /// Creates the formatter.
    public init() {}

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
        lines.append("elapsed: \(milliseconds(report.elapsed)) ms")
        return lines.joined(separator: "\n")
    }

    private func pad(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, 7 - text.count)) + text
    }
}

/// A single JSON object.
public struct JSONFormatter: ReportFormatting {
    /// Creates the formatter.
    public init() {}

    public func format(_ report: Report) -> String {
        let files = report.files.map { stats in
            "{\"name\":\(quote(stats.name)),\"lines\":\(stats.lines),\"words\":\(stats.words),\"characters\":\(stats.characters)}"
        }
        let top = report.total.top(report.top).map { "{\"word\":\(quote($0.word)),\"count\":\($0.count)}" }
        let total = report.total
        return "{\"files\":[\(files.joined(separator: ","))],"
            + "\"total\":{\"lines\":\(total.lines),\"words\":\(total.words),\"characters\":\(total.characters)},"
            + "\"top\":[\(top.joined(separator: ","))],"
            + "\"elapsedMilliseconds\":\(milliseconds(report.elapsed))}"
    }

    private func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// `duration` in milliseconds with three decimals, without Foundation.
func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let fraction = String(microseconds % 1000)
    return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
