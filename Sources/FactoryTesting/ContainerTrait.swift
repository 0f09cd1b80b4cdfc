#if canImport(Testing)
public import Testing

/// A Swift Testing trait that runs each test, and each case of a parameterized
/// test, with a container of its own. Use `.container` for ``Container``, or make
/// one for a custom container with ``init(shared:container:)``.
///
/// Given the container's task-local `shared` (`Container.$shared`, or the `$shared`
/// of a custom container declared with `@TaskLocal static var shared`), each test
/// case gets a new instance bound as `shared`, and its own singleton storage,
/// before anything in it runs; mocks registered by the trait or by the test touch
/// only that instance, so tests run in parallel without seeing each other's
/// registrations, caches or singletons. Code the test runs in child tasks sees the
/// same container; code on threads or detached tasks that do not inherit
/// task-locals sees the process's.
///
/// On a suite the trait applies to every test inside it, nested suites included;
/// a test's own trait for the same container type adds its mocks to the suite's
/// container instead of replacing it.
///
/// A custom container declared with `static let shared` cannot be swapped: the
/// trait made with `.container(OrderContainer.self)` snapshots its registrations, options
/// and caches before the test and restores them after, and runs every test
/// isolated this way one at a time. See <doc:WritingTests>.
///
/// While a test runs inside the trait, resolving an unregistered `promised()`
/// factory fails that test (naming the factory) and resolves to `nil` instead of
/// stopping the test run.
public struct ContainerTrait<C: SharedContainer>: TestTrait, SuiteTrait, TestScoping {
    /// What the trait runs on the test's container before the test: register mocks here.
    /// Asynchronous, as in Factory, so that a closure isolated to an actor
    /// (`{ @MainActor in ... }`) is accepted; a synchronous closure converts to it.
    public typealias Transform = @Sendable (C) async throws -> Void

    private let shared: TaskLocal<C>?
    private let container: @Sendable () -> C
    private var transforms: [@Sendable (C) async throws -> Void] = []

    /// A trait that binds a new container, made by `container`, as the task-local
    /// `shared` for each test:
    ///
    /// ```swift
    /// extension Trait where Self == ContainerTrait<OrderContainer> {
    ///     static var orders: Self { .init(shared: OrderContainer.$shared, container: .init()) }
    /// }
    /// @Test(.orders) func placesAnOrder() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - shared: The container type's task-local `shared` (`OrderContainer.$shared`).
    ///   - container: Makes the test's container; evaluated once per test case.
    public init(shared: TaskLocal<C>, container: @autoclosure @escaping @Sendable () -> C) {
        self.shared = shared
        self.container = container
    }

    /// A trait that snapshots and restores `C.shared`, for containers declared with `static let shared`.
    init(snapshotting type: C.Type) {
        shared = nil
        container = { C.shared }
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
        try await ContainerIsolation.run(C.self, shared: shared, make: container, mocks: transforms, body: function)
    }

    /// This trait, with `transform` run on each test's container before the test:
    ///
    /// ```swift
    /// @Test(.container { $0.payments.register { MockPayments() } })
    /// func paysWithTheMock() { #expect(Container.shared.checkout().pay()) }
    /// ```
    ///
    /// The closure may be synchronous or asynchronous, and isolated to an actor
    /// (`{ @MainActor in ... }`, for main-actor factories).
    ///
    /// - Parameter transform: Registers mocks in the test's container; it runs once per test case.
    public func callAsFunction(transform: @escaping Transform) -> Self {
        var copy = self
        copy.transforms.append(transform)
        return copy
    }
}

extension Trait where Self == ContainerTrait<Container> {
    /// Each test case runs with a new `Container.shared` and its own singletons.
    ///
    /// ```swift
    /// @Suite(.container) struct CheckoutTests {
    ///     @Test func paysWithTheMock() {
    ///         Container.shared.payments.register { MockPayments() }
    ///         #expect(Container.shared.checkout().pay())
    ///     }
    /// }
    /// ```
    ///
    /// Add mocks with a trailing closure: `@Test(.container { $0.payments.register { MockPayments() } })`.
    public static var container: Self {
        ContainerTrait(shared: Container.$shared, container: Container())
    }

    /// Each test case runs with its own `Container` and the registrations of `mocks`.
    ///
    /// ```swift
    /// let offline = Mocks<Container> { $0.api.register { StubAPIClient(.offline) } }
    ///
    /// @Suite(.container(offline)) struct OfflineTests { ... }
    /// ```
    ///
    /// - Parameter mocks: A reusable set of registrations; see ``Mocks``.
    public static func container(_ mocks: Mocks<Container>) -> Self {
        container { mocks.register(in: $0) }
    }
}

extension Trait {
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
    ) -> Self where Self == ContainerTrait<C> {
        let trait: ContainerTrait<C>
        if let taskLocal = C.self as? any TaskLocalContainer.Type {
            trait = Self.taskLocalTrait(taskLocal, as: C.self)
        } else {
            trait = ContainerTrait(snapshotting: C.self)
        }
        return trait(transform: mocks)
    }

    /// Each test case runs with its own container of type `C` and the registrations of `mocks`.
    ///
    /// - Parameter mocks: A reusable set of registrations; see ``Mocks``.
    public static func container<C: SharedContainer>(_ mocks: Mocks<C>) -> Self where Self == ContainerTrait<C> {
        container(C.self) { mocks.register(in: $0) }
    }

    private static func taskLocalTrait<L: TaskLocalContainer, C: SharedContainer>(
        _ type: L.Type, as _: C.Type
    ) -> ContainerTrait<C> {
        // L is C: the caller checked that C conforms to TaskLocalContainer.
        ContainerTrait(shared: L.sharedTaskLocal as! TaskLocal<C>, container: L() as! C)
    }
}
#endif
