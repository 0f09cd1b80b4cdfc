import FactoryCore
import Synchronization
import Testing
import TextStatsKit

/// Collects what the command writes.
final class CapturedOutput: OutputWriting {
    private let lines = Mutex<[String]>([])

    func write(_ text: String) {
        lines.withLock { $0.append(text) }
    }

    var text: String {
        lines.withLock { $0.joined(separator: "\n") }
    }
}

/// Serialized: every test registers into the one `ToolContainer.shared`.
@Suite(.serialized)
struct TextStatsTests {
    /// Runs `textstats arguments` with standard output captured, then puts the container back.
    private func run(_ arguments: [String], diagnostics: CapturedOutput? = nil) throws -> String {
        let container = ToolContainer.shared
        let output = CapturedOutput()
        container.manager.push()
        defer {
            container.manager.trace = false
            container.manager.logger = { print($0) }
            container.manager.pop()
        }
        container.output.register { output }
        if let diagnostics {
            container.diagnostics.register { diagnostics }
        }
        try TextStats.parse(arguments).run()
        return output.text
    }

    @Test func mockPlainReport() throws {
        let text = try run(["--mock", "--top", "3"])
        #expect(
            text == """
                      2      16      80 -
                top words: the 4, dog 2, fox 2
                elapsed: 0.000 ms
                """)
    }

    @Test func mockJSONReportForTwoInputs() throws {
        let text = try run(["--mock", "--format", "json", "--top", "1", "a.txt", "b.txt"])
        #expect(
            text == #"""
                {"files":[{"name":"a.txt","lines":2,"words":16,"characters":80},{"name":"b.txt","lines":2,"words":16,"characters":80}],"total":{"lines":4,"words":32,"characters":160},"top":[{"word":"the","count":8}],"elapsedMilliseconds":0.000}
                """#)
    }

    @Test func verboseTracesEveryResolution() throws {
        let diagnostics = CapturedOutput()
        _ = try run(["--mock", "--verbose"], diagnostics: diagnostics)
        let trace = diagnostics.text
        for name in ["clock", "source", "analyzer", "formatter", "output"] {
            #expect(trace.contains(name), "no trace line for \(name) in:\n\(trace)")
        }
    }

    @Test func mocksAreGoneAfterReset() throws {
        let container = ToolContainer.shared
        container.manager.push()
        defer { container.manager.pop() }
        container.registerMocks()
        #expect(container.source() is SampleTextSource)
        container.source.reset()
        #expect(container.source() is FileSystemSource)
    }

    @Test func missingFileIsAnError() throws {
        #expect(throws: TextSourceError.self) {
            try run(["/nonexistent/textstats-input.txt"])
        }
    }

    @Test func analyzerCountsLikeWC() {
        let stats = TextAnalyzer().analyze("one two\nthree's  four\n\nfive", name: "x")
        #expect(stats.lines == 3)
        #expect(stats.words == 5)
        #expect(stats.characters == 27)
        #expect(stats.frequencies["three's"] == 1)
    }
}
