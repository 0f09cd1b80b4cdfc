import FactoryCore

extension ToolContainer {
    /// Measures how long the analysis took.
    public var clock: Factory<any Clocking> {
        self { SystemClock() }
    }

    /// Reads the files named on the command line.
    public var source: Factory<any TextSource> {
        self { FileSystemSource() }
    }

    /// Counts lines, words and characters.
    public var analyzer: Factory<TextAnalyzer> {
        self { TextAnalyzer() }
    }

    /// Turns a report into text, one formatter per output format.
    public var formatter: ParameterFactory<ReportFormat, any ReportFormatting> {
        self { format in
            switch format {
            case .plain: PlainFormatter()
            case .json: JSONFormatter()
            }
        }
    }

    /// Where the report goes: standard output.
    public var output: Factory<any OutputWriting> {
        self { StandardOutput() }
    }

    /// Where diagnostics and `--verbose` traces go: standard error.
    public var diagnostics: Factory<any OutputWriting> {
        self { StandardError() }
    }
}

extension ToolContainer {
    /// Swaps the clock and the text source for deterministic stand-ins.
    ///
    /// `--mock` calls this, so the tool runs without files and prints the same
    /// report every time. `register` replaces only the closure; `reset()` on
    /// the factory, or `manager.reset(options: .registration)`, brings the real
    /// service back.
    public func registerMocks() {
        clock.register { FixedClock() }
        source.register { SampleTextSource() }
    }
}
