/// What a graph validation resolved: one node per factory, one edge per
/// "resolves" and per captive dependency, sorted so that the same graph always
/// gives the same text.
///
/// Made by `graphReport`/`validateGraph`; draw it with ``dot()`` (Graphviz) or
/// ``mermaid()``:
///
/// ```swift
/// let report = Container.shared.graphReport(\.feed, \.session)
/// print(report.graph.dot())
/// ```
///
/// Every resolution of the validated container is seen, cache hits included.
/// Factories of other containers are seen when their resolution takes the
/// general path: builds of cached and singleton factories, per-request
/// containers (`manager.isPerRequest`) and containers with
/// `manager.logsCaptiveDependencies` on; a cache hit or a unique build of
/// another container is not, so it appears only as the parent of what it
/// resolved, with the scope `unknown`. `AsyncFactory` and
/// `AsyncParameterFactory` resolutions are drawn like synchronous ones.
public struct ResolvedGraph: Sendable, Equatable {
    /// A factory, as `Container.name<Type>`, and how its instances are kept.
    public struct Node: Sendable, Hashable {
        /// The factory, as `Container.name<Type>`.
        public let name: String
        /// `unique`, `singleton`, `cached`, `shared`, `graph` or `custom`, then
        /// `, timeToLive` and `, per-request` when they apply; `unknown` for a
        /// factory seen only as the parent of another (see ``ResolvedGraph``).
        public let scope: String
        /// The module that declares the factory, when the validation knew it: in
        /// the graph of a ``CatalogReport``, for every factory the catalog lists.
        public internal(set) var module: String?
    }

    /// A factory's build that resolved another factory, or kept it captive.
    public struct Edge: Sendable, Hashable {
        /// What the edge stands for.
        public enum Kind: Sendable, Hashable {
            /// `from`'s closure resolved `to` (built or from a cache).
            case resolves
            /// `from` keeps `to` past `to`'s scope: a captive dependency, possibly
            /// through unique factories in between (which have their own edges).
            case captures
        }

        /// The resolving (or capturing) factory, as `Container.name<Type>`.
        public let from: String
        /// The resolved (or captured) factory, as `Container.name<Type>`.
        public let to: String
        /// What the edge stands for.
        public let kind: Kind
        /// Whether the edge is part of a circular dependency the validation found.
        public let isInCycle: Bool
    }

    /// Every factory seen, sorted by name.
    public private(set) var nodes: [Node]
    /// Every edge, sorted by `from`, then `to`, `resolves` before `captures`.
    public let edges: [Edge]

    /// The same graph, each node given the module `module(name)` says declares it
    /// (`name` as `Container.api`); ``dot()`` and ``mermaid()`` then group the
    /// nodes by module.
    func withModules(_ module: (String) -> String?) -> ResolvedGraph {
        var graph = self
        for index in graph.nodes.indices {
            graph.nodes[index].module = module(String(graph.nodes[index].name.prefix { $0 != "<" }))
        }
        return graph
    }

    /// The graph from what the validation threads recorded.
    init(scopes: [String: String], resolves: Set<[String]>, captures: Set<[String]>, cycles: [[FactoryKey]]) {
        var cycleEdges: Set<[String]> = []
        for cycle in cycles {
            let names = cycle.map(\.description)
            for index in names.indices.dropLast() { cycleEdges.insert([names[index], names[index + 1]]) }
        }
        var all = scopes
        for pair in resolves.union(captures) {
            for name in pair where all[name] == nil { all[name] = "unknown" }
        }
        nodes = all.map { Node(name: $0.key, scope: $0.value, module: nil) }.sorted { $0.name < $1.name }
        let resolveEdges = resolves.map {
            Edge(from: $0[0], to: $0[1], kind: .resolves, isInCycle: cycleEdges.contains($0))
        }
        let captureEdges = captures.map { Edge(from: $0[0], to: $0[1], kind: .captures, isInCycle: false) }
        edges = (resolveEdges + captureEdges).sorted {
            ($0.from, $0.to, $0.kind == .captures ? 1 : 0) < ($1.from, $1.to, $1.kind == .captures ? 1 : 0)
        }
    }

    /// The graph in Graphviz DOT: boxes labelled with the factory and its scope,
    /// an arrow per resolution, red arrows labelled `cycle` for a circular
    /// dependency, and red dashed arrows labelled `captures` for a captive one.
    /// Node identifiers are the names with every character that is not a letter,
    /// digit or `_` replaced by `_`, prefixed with `n_` (and numbered when two
    /// names would clash). When the nodes are of several modules, those whose
    /// module is known are drawn inside a box (`subgraph cluster_...`) labelled with it.
    public func dot() -> String {
        let ids = identifiers()
        var lines = ["digraph Factory {", "    rankdir=LR;", "    node [shape=box];"]
        for (module, nodes) in byModule() {
            let indent = module == nil ? "    " : "        "
            if let module {
                lines.append("    subgraph cluster_\(Self.identifier(module)) {")
                lines.append("        label=\"\(Self.dotEscaped(module))\";")
            }
            for node in nodes {
                lines.append(
                    indent + "\(ids[node.name]!) [label=\"\(Self.dotEscaped(node.name))\\n\(Self.dotEscaped(node.scope))\"];")
            }
            if module != nil { lines.append("    }") }
        }
        for edge in edges {
            let arrow = "    \(ids[edge.from]!) -> \(ids[edge.to]!)"
            switch (edge.kind, edge.isInCycle) {
            case (.captures, _): lines.append(arrow + " [color=red, style=dashed, label=\"captures\"];")
            case (.resolves, true): lines.append(arrow + " [color=red, label=\"cycle\"];")
            case (.resolves, false): lines.append(arrow + ";")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart: the same nodes and edges as ``dot()``,
    /// cycles as `-->|cycle|` and captures as `-.->|captures|`, both drawn red
    /// by a `linkStyle` line. `<`, `>` and `"` in labels are written as Mermaid
    /// entities (`#lt;`, `#gt;`, `#quot;`). When the nodes are of several modules,
    /// those whose module is known are drawn inside a `subgraph` named after it.
    public func mermaid() -> String {
        let ids = identifiers()
        var lines = ["flowchart LR"]
        for (module, nodes) in byModule() {
            let indent = module == nil ? "    " : "        "
            if let module {
                lines.append("    subgraph module_\(Self.identifier(module))[\"\(Self.mermaidEscaped(module))\"]")
            }
            for node in nodes {
                lines.append(
                    indent + "\(ids[node.name]!)[\"\(Self.mermaidEscaped(node.name))<br/>\(Self.mermaidEscaped(node.scope))\"]")
            }
            if module != nil { lines.append("    end") }
        }
        var red: [Int] = []
        for (index, edge) in edges.enumerated() {
            let (from, to) = (ids[edge.from]!, ids[edge.to]!)
            switch (edge.kind, edge.isInCycle) {
            case (.captures, _):
                lines.append("    \(from) -.->|captures| \(to)")
                red.append(index)
            case (.resolves, true):
                lines.append("    \(from) -->|cycle| \(to)")
                red.append(index)
            case (.resolves, false):
                lines.append("    \(from) --> \(to)")
            }
        }
        if !red.isEmpty {
            lines.append("    linkStyle \(red.map(String.init).joined(separator: ",")) stroke:red")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The nodes without a module first, then each module's, modules by name; all
    /// in one group when they are not of two modules or more.
    private func byModule() -> [(module: String?, nodes: [Node])] {
        let modules = Set(nodes.compactMap(\.module)).sorted()
        guard modules.count > 1 else { return [(nil, nodes)] }
        let loose = nodes.filter { $0.module == nil }
        return (loose.isEmpty ? [] : [(nil, loose)]) + modules.map { module in (module, nodes.filter { $0.module == module }) }
    }

    /// `text` with every character that is not an ASCII letter or digit replaced by `_`.
    private static func identifier(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// A DOT and Mermaid identifier for every node, assigned in node order so
    /// that the same graph always gets the same ones.
    private func identifiers() -> [String: String] {
        var ids: [String: String] = [:]
        var taken: Set<String> = []
        for node in nodes {
            let base = "n_" + Self.identifier(node.name)
            var id = base
            var number = 2
            while !taken.insert(id).inserted {
                id = "\(base)_\(number)"
                number += 1
            }
            ids[node.name] = id
        }
        return ids
    }

    private static func dotEscaped(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
    }

    private static func mermaidEscaped(_ text: String) -> String {
        text.replacingAll("\"", with: "#quot;").replacingAll("<", with: "#lt;").replacingAll(">", with: "#gt;")
    }
}

extension String {
    /// `self` with every `target` replaced by `replacement` (no Foundation needed).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
