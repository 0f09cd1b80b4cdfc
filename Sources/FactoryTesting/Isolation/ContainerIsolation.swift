/// Runs a test with a container of its own: the scoping behind the `.container` traits.
///
/// Two strategies, picked by whether the trait knows the container's task-local `shared`:
///
/// - With a task-local (`Container.$shared`, or any ``TaskLocalContainer``) the
///   test gets a new instance bound as `shared`, with the test's own singleton
///   storage. Nothing is shared with other tests, so tests run fully in parallel.
/// - Any other `SharedContainer` (`static let shared`) cannot be swapped. Its
///   registrations, options and caches are snapshotted before the test and
///   restored after it, and every test isolating such a container runs inside
///   ``SerialLane/shared``, one at a time. A test that waits there while one
///   holder keeps the lane for ten minutes fails, naming both containers.
///
/// A scope nested in another for the same container type (a suite's trait and
/// the test's own) reuses the outer one and only adds its mocks.
enum ContainerIsolation {
    static func run<C: SharedContainer>(
        _ type: C.Type,
        shared: TaskLocal<C>?,
        make: @Sendable () -> C,
        mocks: [@Sendable (C) async throws -> Void],
        body: () async throws -> Void
    ) async throws {
        FactoryTestingReporter.install()
        let isolation = TestIsolation.current
        if isolation.containers.contains(ObjectIdentifier(C.self)) {
            for mock in mocks { try await mock(C.shared) }
            try await body()
        } else if let shared {
            try await runFresh(shared, make: make, isolation: isolation, mocks: mocks, body: body)
        } else {
            try await runSnapshotted(C.self, isolation: isolation, mocks: mocks, body: body)
        }
    }

    private static func runFresh<C: SharedContainer>(
        _ shared: TaskLocal<C>,
        make: @Sendable () -> C,
        isolation: TestIsolation,
        mocks: [@Sendable (C) async throws -> Void],
        body: () async throws -> Void
    ) async throws {
        // One singleton storage per test, shared by every container the test's traits make.
        let singletons = GlobalStorage.testStorage ?? GlobalStorage()
        let container = make()
        container.manager.useGlobalStorage(singletons)
        var inner = isolation
        inner.containers.insert(ObjectIdentifier(C.self))
        inner.inTrait = true
        inner.bindings.append { body in shared.withValue(container, operation: body) }
        try await GlobalStorage.$testStorage.withValue(singletons) {
            try await shared.withValue(container) {
                try await TestIsolation.$current.withValue(inner) {
                    for mock in mocks { try await mock(container) }
                    try await body()
                }
            }
        }
    }

    private static func runSnapshotted<C: SharedContainer>(
        _ type: C.Type,
        isolation: TestIsolation,
        mocks: [@Sendable (C) async throws -> Void],
        body: () async throws -> Void
    ) async throws {
        let takesLane = !isolation.holdsLane
        if takesLane { try await SerialLane.shared.acquire(for: String(describing: C.self)) }
        let container = C.shared
        // Singletons of a `static let` container live in the process's storage, which
        // other tests use at the same time: drop only what this test changed there.
        let snapshot = ContainerSnapshot(of: [container], singletons: .dropChangedOwnKeys)
        var inner = isolation
        inner.containers.insert(ObjectIdentifier(C.self))
        inner.holdsLane = true
        inner.inTrait = true
        do {
            try await TestIsolation.$current.withValue(inner) {
                for mock in mocks { try await mock(container) }
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
