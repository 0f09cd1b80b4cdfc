import ArgumentParser
import FactoryCore

/// `textstats`: counts lines, words and characters and lists the most frequent words.
///
/// Every service comes from ``ToolContainer``; `--mock` overrides two of them
/// and `--verbose` turns on the container's resolution trace.
public struct TextStats: ParsableCommand {
    /// The command's name and help text.
    public static let configuration = CommandConfiguration(
        commandName: "textstats",
        abstract: "Count lines, words and characters, and list the most frequent words."
    )

    @Argument(help: "Files to read. None, or '-', reads standard input.")
    var files: [String] = []

    @Option(help: "Output format.")
    var format: ReportFormat = .plain

    @Option(help: "How many of the most frequent words to list.")
    var top: Int = 5

    @Flag(help: "Read built-in sample text and use a stopped clock instead of files and real time.")
    var mock = false

    @Flag(name: .shortAndLong, help: "Trace every dependency resolution on standard error.")
    var verbose = false

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Reads the input, analyses it and writes the report, all through `ToolContainer`.
    public func run() throws {
        let container = ToolContainer.shared
        if mock {
            container.registerMocks()
        }
        if verbose {
            // Resolve the writer first: resolving it inside the logger would
            // itself be traced.
            let diagnostics = container.diagnostics()
            container.manager.logger = { line in
                diagnostics.write("trace: \(line)")
            }
            container.manager.trace = true
        }

        let clock = container.clock()
        let started = clock.now
        let source = container.source()
        let analyzer = container.analyzer()
        var stats: [FileStats] = []
        for name in files.isEmpty ? ["-"] : files {
            stats.append(analyzer.analyze(try source.read(name), name: name))
        }
        let report = Report(files: stats, top: top, elapsed: clock.now - started)

        container.output().write(container.formatter(format).format(report))
    }
}
