/// What the FactoryTesting scopes around the running test have set up.
///
/// Task-local, so each test, and each case of a parameterized test, sees only
/// its own; nested scopes (a suite's `.container` trait and the test's own)
/// read it to add to the outer scope instead of replacing it.
struct TestIsolation: Sendable {
    /// The isolation of the current task.
    @TaskLocal static var current = TestIsolation()

    /// Container types that already have a per-test instance, or a snapshot, in this scope.
    var containers: Set<ObjectIdentifier> = []

    /// Whether a `.container` trait scopes the running test (its failures can be
    /// recorded against it, see ``FactoryTestingReporter``).
    var inTrait = false

    /// Whether this scope holds ``SerialLane/shared``, the lane of `static let` containers.
    var holdsLane = false

    /// Rebinds each task-local container this scope isolates, for code that runs on
    /// a thread that does not inherit task-locals (graph validation).
    var bindings: [@Sendable (_ body: () -> Void) -> Void] = []
}
