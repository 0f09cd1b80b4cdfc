/// What catalog validation found: the graph validation of every factory it could
/// resolve, each problem once (``findings``), the factories it could not resolve,
/// and those the catalog skips.
public struct CatalogReport: Sendable, CustomStringConvertible {
    /// The module of the catalog; for a catalog of the modules a test target
    /// depends on, the test target.
    public let module: String
    /// The modules that declare the catalog's factories.
    public let modules: [String]
    /// The validation of every resolved factory: failures with their chains,
    /// distinct cycles, captive dependencies, and the whole graph.
    public let validation: GraphValidationReport
    /// Each problem once, with every chain that reached it, in catalog order: an
    /// unregistered promise, a cycle, a captive dependency, an error an async
    /// factory threw, ... (``validation`` has one failure per entry that ran into one).
    public let findings: [CatalogFinding]
    /// Catalog factories that were not resolved: a parameter factory without a
    /// sample, or a container type without an instance.
    public let unchecked: [FactoryCatalog.Unchecked]
    /// Catalog factories that a test cannot reach (`private`, `fileprivate`, ...), with the reason.
    public let skipped: [FactoryCatalog.Skipped]
    /// The whole graph of the run, each factory the catalog lists with its module.
    public let graph: ResolvedGraph

    init(catalog: FactoryCatalog, validation: GraphValidationReport, unchecked: [FactoryCatalog.Unchecked]) {
        module = catalog.module
        modules = catalog.modules
        self.validation = validation
        self.unchecked = unchecked
        skipped = catalog.skipped
        findings = CatalogFinding.gather(validation.failures, module: catalog.module(declaring:))
        graph = validation.graph.withModules(catalog.module(declaring:))
    }

    /// Every failure, in catalog order: see ``GraphValidationReport/failures``.
    public var failures: [GraphFailure] {
        validation.failures
    }

    /// Each distinct cycle once: see ``GraphValidationReport/cycles``.
    public var cycles: [[FactoryKey]] {
        validation.cycles
    }

    /// Every captive dependency: see ``GraphValidationReport/captives``.
    public var captives: [GraphFailure] {
        validation.captives
    }

    /// Whether every factory was resolved, without a failure. Skipped factories do not count.
    public var isValid: Bool {
        validation.isValid && unchecked.isEmpty
    }

    /// The whole graph of the run as a Mermaid flowchart; for a catalog of several
    /// modules, each module's factories in a subgraph of their own (see ``ResolvedGraph/mermaid()``).
    public func mermaid() -> String {
        graph.mermaid()
    }

    /// The whole graph of the run in Graphviz DOT; for a catalog of several modules,
    /// each module's factories in a cluster of their own (see ``ResolvedGraph/dot()``).
    public func dot() -> String {
        graph.dot()
    }

    /// A summary line, then each finding once with every chain that reached it,
    /// each unchecked and each skipped factory.
    public var description: String {
        let resolved = validation.entries.count
        let modules = self.modules.count > 1 || self.modules.first.map { $0 != module } == true
        var lines = [
            "Factory catalog of \(module)"
                + (modules ? " (modules \(self.modules.joined(separator: ", ")))" : "")
                + ": \(resolved + unchecked.count) factories, \(resolved) resolved, "
                + "\(findings.count) finding(s), \(unchecked.count) unchecked, \(skipped.count) skipped"
        ]
        for finding in findings {
            lines.append("  \(finding.kind): \(finding.headline(module: modules))")
            lines += finding.chainLines.map { "  " + $0 }
        }
        lines += unchecked.map { "  unchecked: " + (modules ? "\($0.name) (\($0.module)): \($0.reason)" : "\($0)") }
        lines += skipped.map {
            "  skipped: " + (modules ? "\($0.name) (\($0.access.rawValue), \($0.module)): \($0.reason)" : "\($0)")
        }
        return lines.joined(separator: "\n")
    }

    /// Fails the current test once per finding and once per unchecked factory.
    ///
    /// - Parameters:
    ///   - fileID: The file the failures point at; leave the default.
    ///   - filePath: The file the failures point at; leave the default.
    ///   - line: The line the failures point at; leave the default.
    ///   - column: The column the failures point at; leave the default.
    public func recordIssues(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let recorder = IssueRecorder(fileID: fileID, filePath: filePath, line: line, column: column)
        for finding in findings {
            recorder.record("Factory catalog: \(finding)")
        }
        for factory in unchecked {
            recorder.record("Factory catalog: \(factory.name) was not checked: \(factory.reason)")
        }
    }
}
