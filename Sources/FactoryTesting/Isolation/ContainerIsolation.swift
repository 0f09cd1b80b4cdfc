/// Runs a test with a container of its own: the scoping behind the `.container` traits.
///
/// Two strategies, picked by how the container declares `shared`:
///
/// - A ``TaskLocalContainer`` gets a new instance bound as `shared` for the test,
///   with the test's own singleton storage. Nothing is shared with other tests,
///   so tests run fully in parallel.
/// - Any other `SharedContainer` (`static let shared`) cannot be swapped. Its
///   registrations, options and caches are snapshotted before the test and
///   restored after it, and every test isolating such a container runs inside
///   ``SerialLane/shared``, one at a time.
///
/// A scope nested in another for the same container type (a suite's trait and
/// the test's own) reuses the outer one and only adds its mocks.
enum ContainerIsolation {
    static func run<C: SharedContainer>(
        _ type: C.Type,
        mocks: @Sendable (C) async throws -> Void,
        body: () async throws -> Void
    ) async throws {
        let isolation = TestIsolation.current
        if isolation.containers.contains(ObjectIdentifier(C.self)) {
            try await mocks(C.shared)
            try await body()
        } else if let taskLocal = C.self as? any TaskLocalContainer.Type {
            try await runFresh(taskLocal, as: C.self, isolation: isolation, mocks: mocks, body: body)
        } else {
            try await runSnapshotted(C.self, isolation: isolation, mocks: mocks, body: body)
        }
    }

    private static func runFresh<L: TaskLocalContainer, C: SharedContainer>(
        _ type: L.Type,
        as _: C.Type,
        isolation: TestIsolation,
        mocks: @Sendable (C) async throws -> Void,
        body: () async throws -> Void
    ) async throws {
        // One singleton storage per test, shared by every container the test creates.
        let singletons = ScopeStorage.taskSingletons ?? ScopeStorage()
        try await ScopeStorage.$taskSingletons.withValue(singletons) {
            // Created after the binding: a manager picks its singleton storage at init.
            let container = L()
            var inner = isolation
            inner.containers.insert(ObjectIdentifier(L.self))
            inner.bindings.append { body in L.sharedTaskLocal.withValue(container, operation: body) }
            try await L.sharedTaskLocal.withValue(container) {
                try await TestIsolation.$current.withValue(inner) {
                    // L is C: `run` only gets here when C conforms to TaskLocalContainer.
                    try await mocks(container as! C)
                    try await body()
                }
            }
        }
    }

    private static func runSnapshotted<C: SharedContainer>(
        _ type: C.Type,
        isolation: TestIsolation,
        mocks: @Sendable (C) async throws -> Void,
        body: () async throws -> Void
    ) async throws {
        let takesLane = !isolation.holdsLane
        if takesLane { await SerialLane.shared.acquire() }
        let container = C.shared
        // Singletons of a `static let` container live in the process's storage, which
        // other tests use at the same time: drop only what this test changed there.
        let snapshot = ContainerSnapshot(of: [container], singletons: .dropChangedOwnKeys)
        var inner = isolation
        inner.containers.insert(ObjectIdentifier(C.self))
        inner.holdsLane = true
        do {
            try await TestIsolation.$current.withValue(inner) {
                try await mocks(container)
                try await body()
            }
        } catch {
            snapshot.restore()
            if takesLane { await SerialLane.shared.release() }
            throw error
        }
        snapshot.restore()
        if takesLane { await SerialLane.shared.release() }
    }
}
