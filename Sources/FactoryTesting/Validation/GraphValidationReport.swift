/// What graph validation found: every listed factory, and every failure, in one run.
public struct GraphValidationReport: Sendable, CustomStringConvertible {
    /// The listed factories, in order, as `Container.name<Type>`.
    public let entries: [String]
    /// Every failure, in the order of the entries; an entry can have several (a
    /// promise left unregistered and then a cycle, say).
    public let failures: [GraphFailure]
    /// What the validation resolved, to draw with ``dot()`` or ``mermaid()``;
    /// empty in a report made by hand.
    public let graph: ResolvedGraph

    init(entries: [String], failures: [GraphFailure], graph: ResolvedGraph? = nil) {
        self.entries = entries
        self.failures = failures
        self.graph = graph ?? ResolvedGraph(scopes: [:], resolves: [], captures: [], cycles: [])
    }

    /// ``graph`` in Graphviz DOT (see ``ResolvedGraph/dot()``).
    public func dot() -> String {
        graph.dot()
    }

    /// ``graph`` as a Mermaid flowchart (see ``ResolvedGraph/mermaid()``).
    public func mermaid() -> String {
        graph.mermaid()
    }

    /// Every captive dependency found, in the order of the entries.
    public var captives: [GraphFailure] {
        failures.filter { $0.kind == .captiveDependency }
    }

    /// Whether every listed factory resolved without a failure.
    public var isValid: Bool {
        failures.isEmpty
    }

    /// Each distinct cycle once, however many listed factories ran into it;
    /// the first and last element of each are equal.
    public var cycles: [[FactoryKey]] {
        var seen: Set<[String]> = []
        var result: [[FactoryKey]] = []
        for failure in failures {
            let cycle = failure.cycle
            guard !cycle.isEmpty else { continue }
            // A cycle entered from another factory is the same cycle, rotated.
            let names = cycle.dropLast().map(\.description)
            let start = names.indices.min { names[$0] < names[$1] } ?? 0
            if seen.insert(Array(names[start...] + names[..<start])).inserted {
                result.append(cycle)
            }
        }
        return result
    }

    /// One line per failure, or a line saying that every entry resolved.
    public var description: String {
        if failures.isEmpty {
            return "Graph validation: all \(entries.count) factories resolved"
        }
        return
            (["Graph validation: \(failures.count) failure(s) in \(entries.count) factories"]
            + failures.map { "  \($0)" }).joined(separator: "\n")
    }

    /// Fails the current test once per failure, at the given location.
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
        for failure in failures {
            recorder.record("Graph validation: \(failure)")
        }
    }
}
