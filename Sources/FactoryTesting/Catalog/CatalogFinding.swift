/// One problem of the graph, however many catalog entries ran into it.
///
/// Validation resolves every entry, so one problem shows up once per entry whose
/// resolution reaches it: a `promised()` factory nobody registers fails itself and
/// every factory that resolves it; a cycle fails each factory on it. A finding is
/// that problem once, with every chain that reached it.
public struct CatalogFinding: Sendable, CustomStringConvertible {
    /// What is wrong.
    public let kind: GraphFailure.Kind
    /// The factory at fault, as `Container.name<Type>`: the promise nothing
    /// registers, the factory whose closure threw, the holder of a captive
    /// dependency, the first factory of a cycle as found; for a factory that could
    /// not be resolved, the catalog entry.
    public let factory: String
    /// The module that declares ``factory``, when the catalog lists it.
    public let module: String?
    /// The message of the first failure (the one a program would stop with).
    public let message: String
    /// Every chain that reached the problem, one per failure, outermost factory
    /// first, in catalog order; each distinct chain once.
    public let chains: [[FactoryKey]]
    /// The failures this finding gathers, in catalog order.
    public let failures: [GraphFailure]

    /// `factory: message`, then `  chain: ...` for each chain that says more than
    /// the message (not the factory alone, nor a chain the message spells out).
    public var description: String {
        ([headline(module: false)] + chainLines).joined(separator: "\n")
    }

    /// `factory: message`, with ` (module)` after the factory when asked and known.
    func headline(module: Bool) -> String {
        "\(factory)\(module ? self.module.map { " (\($0))" } ?? "" : ""): \(message)"
    }

    /// `  chain: A > B` per chain that says more than the message.
    var chainLines: [String] {
        chains.map { $0.map(\.description).joined(separator: " > ") }
            .filter { $0 != factory && !message.contains($0) }
            .map { "  chain: \($0)" }
    }

    /// Gathers `failures` into findings, in the order of each finding's first failure.
    ///
    /// - Parameter module: The module that declares a factory, by `Container.name`.
    static func gather(_ failures: [GraphFailure], module: (String) -> String?) -> [CatalogFinding] {
        var order: [String] = []
        var groups: [String: [GraphFailure]] = [:]
        for failure in failures {
            let key = "\(failure.kind)|\(problem(of: failure).key)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(failure)
        }
        return order.map { key in
            let failures = groups[key]!
            let first = failures[0]
            let factory = problem(of: first).factory
            var chains: [[FactoryKey]] = []
            for failure in failures where !failure.chain.isEmpty && !chains.contains(failure.chain) {
                chains.append(failure.chain)
            }
            return CatalogFinding(
                kind: first.kind, factory: factory, module: module(String(factory.prefix { $0 != "<" })),
                message: first.message, chains: chains, failures: failures)
        }
    }

    /// What a failure is about, which every entry that ran into it shares (`key`),
    /// and the factory at fault.
    private static func problem(of failure: GraphFailure) -> (key: String, factory: String) {
        switch failure.kind {
        case .circularDependency:
            // The same loop entered from any of its factories: its smallest rotation names it.
            let cycle = failure.cycle.dropLast().map(\.description)
            guard let start = cycle.indices.min(by: { cycle[$0] < cycle[$1] }) else {
                return (failure.entry, failure.entry)
            }
            return ((cycle[start...] + cycle[..<start]).joined(separator: " > "), cycle[start])
        case .captiveDependency:
            let holder = failure.holderChain.last?.description ?? failure.entry
            return ("\(holder) > \(failure.chain.last?.description ?? "")", holder)
        case .unregisteredPromise, .thrownError, .misuse:
            let factory = failure.chain.last?.description ?? failure.entry
            return (factory, factory)
        case .notAFactory, .missingParameter, .timedOut:
            return (failure.entry, failure.entry)
        }
    }
}
