/// What catalog validation found: the graph validation of every factory it could
/// resolve, the factories it could not, and those the catalog skips.
public struct CatalogReport: Sendable, CustomStringConvertible {
    /// The module of the catalog.
    public let module: String
    /// The validation of every resolved factory: failures with their chains,
    /// distinct cycles, captive dependencies, and the whole graph.
    public let validation: GraphValidationReport
    /// Catalog factories that were not resolved: a parameter factory without a
    /// sample, or a container type without an instance.
    public let unchecked: [FactoryCatalog.Unchecked]
    /// Catalog factories that a test cannot reach (`private`, `fileprivate`, ...), with the reason.
    public let skipped: [FactoryCatalog.Skipped]

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

    /// The whole graph of the run as a Mermaid flowchart (see ``ResolvedGraph/mermaid()``).
    public func mermaid() -> String {
        validation.mermaid()
    }

    /// The whole graph of the run in Graphviz DOT (see ``ResolvedGraph/dot()``).
    public func dot() -> String {
        validation.dot()
    }

    /// A summary line, then one line per failure with its chain, per unchecked and per skipped factory.
    public var description: String {
        let resolved = validation.entries.count
        var lines = [
            "Factory catalog of \(module): \(resolved + unchecked.count) factories, \(resolved) resolved, "
                + "\(validation.failures.count) failure(s), \(unchecked.count) unchecked, \(skipped.count) skipped"
        ]
        for failure in validation.failures {
            lines.append("  \(failure)")
            let chain = failure.chain.map(\.description).joined(separator: " > ")
            // Cycles and captures name their chain in the message already.
            if failure.chain.count > 1 && !failure.message.contains(chain) { lines.append("    chain: " + chain) }
        }
        lines += unchecked.map { "  unchecked: \($0)" }
        lines += skipped.map { "  skipped: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// Fails the current test once per failure and once per unchecked factory.
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
        validation.recordIssues(fileID: fileID, filePath: filePath, line: line, column: column)
        let recorder = IssueRecorder(fileID: fileID, filePath: filePath, line: line, column: column)
        for factory in unchecked {
            recorder.record("Factory catalog: \(factory.name) was not checked: \(factory.reason)")
        }
    }
}
