/// One graph validation: the factories to resolve and what was found so far.
///
/// Shared by the caller and the validation threads; everything that changes is
/// behind a core `LockedBox`.
final class ValidationRun: Sendable {
    struct State {
        /// Failures with the index of the item they belong to.
        var failures: [(index: Int, failure: GraphFailure)] = []
        /// The first item no thread has started yet.
        var next = 0
        /// The item a validation thread resolves now.
        var current = 0
        /// The caller stopped waiting for a thread stuck in an item: a thread that
        /// comes back starts nothing more.
        var abandoned = false
        /// The scope of every factory resolved, by name.
        var scopes: [String: String] = [:]
        /// `[parent, child]` for every resolution inside another's build.
        var resolves: Set<[String]> = []
        /// `[holder, captured]` for every captive dependency.
        var captures: Set<[String]> = []
    }

    let items: [ValidationItem]
    /// The container being validated, to clear the builds a parked thread leaves behind.
    let container: any ManagedContainer
    let state = LockedBox(State())

    init(items: [ValidationItem], container: any ManagedContainer) {
        self.items = items
        self.container = container
    }

    func append(_ failure: GraphFailure, at index: Int) {
        state.withLock { $0.failures.append((index, failure)) }
    }

    var report: GraphValidationReport {
        let (failures, scopes, resolves, captures) = state.withLock { state in
            (
                state.failures.enumerated()
                    .sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
                    .map(\.element.failure), state.scopes, state.resolves, state.captures
            )
        }
        let report = GraphValidationReport(entries: items.map(\.name), failures: failures, graph: nil)
        let graph = ResolvedGraph(scopes: scopes, resolves: resolves, captures: captures, cycles: report.cycles)
        return GraphValidationReport(entries: report.entries, failures: failures, graph: graph)
    }
}
