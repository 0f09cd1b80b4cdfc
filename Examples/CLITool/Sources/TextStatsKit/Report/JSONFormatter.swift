/// A single JSON object.
public struct JSONFormatter: ReportFormatting {
    /// Creates the formatter.
    public init() {}

    /// The report as a JSON object.
    public func format(_ report: Report) -> String {
        let files = report.files.map { stats in
            "{\"name\":\(quote(stats.name)),\"lines\":\(stats.lines),\"words\":\(stats.words),\"characters\":\(stats.characters)}"
        }
        let top = report.total.top(report.top).map { "{\"word\":\(quote($0.word)),\"count\":\($0.count)}" }
        let total = report.total
        return "{\"files\":[\(files.joined(separator: ","))],"
            + "\"total\":{\"lines\":\(total.lines),\"words\":\(total.words),\"characters\":\(total.characters)},"
            + "\"top\":[\(top.joined(separator: ","))],"
            + "\"elapsedMilliseconds\":\(report.elapsed.millisecondsText)}"
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
