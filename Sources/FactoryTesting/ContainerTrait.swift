#if canImport(Testing)
public import Testing

/// A Swift Testing trait that runs each test, and each case of a parameterized
/// test, with a container of its own. Make one with `.container`.
///
/// With `Container` (and any ``TaskLocalContainer``) each test case gets a new
/// instance bound as `shared`, and its own singleton storage, before anything in
/// it runs; mocks registered by the trait or by the test touch only that
/// instance, so tests run in parallel without seeing each other's registrations,
/// caches or singletons. Code the test runs in child tasks sees the same
/// container; code on threads or detached tasks that do not inherit task-locals
/// sees the process's.
///
/// On a suite the trait applies to every test inside it, nested suites included;
/// a test's own `.container` trait adds its mocks to the suite's container
/// instead of replacing it.
///
/// A custom container declared with `static let shared` cannot be swapped: the
/// trait snapshots its registrations, options and caches before the test and
/// restores them after, and runs every test isolated this way one at a time.
/// See <doc:WritingTests> for what that can and cannot isolate.
public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
    private let isolate: @Sendable (_ body: @Sendable () async throws -> Void) async throws -> Void

    fileprivate init<C: SharedContainer>(_ type: C.Type, mocks: @escaping @Sendable (C) async throws -> Void) {
        isolate = { body in
            try await ContainerIsolation.run(C.self, mocks: mocks, body: body)
        }
    }

    /// `true`: on a suite, the trait applies to every test in it.
    public var isRecursive: Bool {
        true
    }

    /// The trait scopes each test case, never a whole suite or a whole
    /// parameterized function, so that every case gets its own container.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function`, one test case, with its own container and mocks.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await isolate(function)
    }
}

extension Trait where Self == ContainerTrait {
    /// Each test case runs with a new `Container.shared` and its own singletons.
    ///
    /// ```swift
    /// @Suite(.container) struct CheckoutTests {
    ///     @Test func paysWithTheMock() {
    ///         Container.shared.payments.register { MockPayments() }
    ///         #expect(Container.shared.checkout().pay())
    ///     }
    ///
    ///     @Test(arguments: 1...50) func eachCaseSeesItsOwnMock(_ id: Int) {
    ///         Container.shared.payments.register { MockPayments(id: id) }
    ///         #expect(Container.shared.payments().id == id)
    ///     }
    /// }
    /// ```
    public static var container: Self {
        ContainerTrait(Container.self) { _ in }
    }

    /// Each test case runs with a new `Container.shared`, its own singletons, and
    /// the mocks `mocks` registers in it before the test starts.
    ///
    /// ```swift
    /// @Test(.container { $0.payments.register { MockPayments() } })
    /// func paysWithTheMock() {
    ///     #expect(Container.shared.checkout().pay())
    /// }
    /// ```
    ///
    /// - Parameter mocks: Registers mocks in the test's container; it runs once per test case.
    public static func container(_ mocks: @escaping @Sendable (Container) async throws -> Void) -> Self {
        ContainerTrait(Container.self, mocks: mocks)
    }

    /// Each test case runs with its own instance, or its own snapshot, of the
    /// custom container `type`, with the mocks `mocks` registers in it.
    ///
    /// ```swift
    /// @Suite(.container(OrderContainer.self) { $0.checkout.register { MockCheckout() } })
    /// struct OrderTests { ... }
    /// ```
    ///
    /// When `type` conforms to ``TaskLocalContainer``, each test case gets a new
    /// instance bound as `shared`, and tests run in parallel. Otherwise `shared`
    /// is the one instance of the process: the trait snapshots it before the test
    /// and restores it after, and tests isolated this way run one at a time, while
    /// tests without the trait may still see its mocks. Singletons of such a
    /// container live in the process's storage; those the test built or replaced
    /// are dropped afterwards, and built again from their definitions on next use.
    ///
    /// - Parameters:
    ///   - type: The container type, e.g. `OrderContainer.self`.
    ///   - mocks: Registers mocks in the test's container; it runs once per test case.
    public static func container<C: SharedContainer>(
        _ type: C.Type,
        _ mocks: @escaping @Sendable (C) async throws -> Void = { _ in }
    ) -> Self {
        ContainerTrait(type, mocks: mocks)
    }

    /// Each test case runs with its own container of type `C` and the registrations of `mocks`.
    ///
    /// ```swift
    /// let offline = Mocks<Container> { $0.api.register { StubAPIClient(.offline) } }
    ///
    /// @Suite(.container(offline)) struct OfflineTests { ... }
    /// ```
    ///
    /// - Parameter mocks: A reusable set of registrations; see ``Mocks``.
    public static func container<C: SharedContainer>(_ mocks: Mocks<C>) -> Self {
        ContainerTrait(C.self) { mocks.register(in: $0) }
    }
}
#endif
