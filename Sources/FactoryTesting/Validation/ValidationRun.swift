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
        let failures = state.withLock { state in
            state.failures.enumerated()
                .sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
                .map(\.element.failure)
        }
        return GraphValidationReport(entries: items.map(\.name), failures: failures)
    }
}
