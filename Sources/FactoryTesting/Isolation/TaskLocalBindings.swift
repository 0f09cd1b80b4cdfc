/// The task-locals a FactoryTesting scope depends on, captured so that they can
/// be bound again on a thread that does not inherit them.
///
/// Graph validation resolves on threads of its own; without these bindings a
/// factory closure there would see the process's `Container.shared` instead of the
/// test's. Task-locals of other libraries are not carried over.
struct TaskLocalBindings: Sendable {
    private let container = Container.shared
    private let singletons = GlobalStorage.testStorage
    private let isolation = TestIsolation.current

    /// Captures the calling task's bindings.
    init() {}

    /// Runs `body` with the captured bindings in place.
    func run(_ body: () -> Void) {
        GlobalStorage.$testStorage.withValue(singletons) {
            Container.$shared.withValue(container) {
                TestIsolation.$current.withValue(isolation) {
                    Self.bind(isolation.bindings[...], around: body)
                }
            }
        }
    }

    private static func bind(_ bindings: ArraySlice<@Sendable (_ body: () -> Void) -> Void>, around body: () -> Void) {
        guard let first = bindings.first else { return body() }
        first { bind(bindings.dropFirst(), around: body) }
    }
}
