#if canImport(XCTest)
public import XCTest

/// An `XCTestCase` whose tests each start from, and leave behind, the containers
/// as they were: registrations, options, scope caches and singletons.
///
/// ```swift
/// final class CheckoutTests: ContainerTestCase {
///     override func setUp() {
///         super.setUp()
///         Container.shared.mock(checkoutMocks)
///     }
///
///     func testPaysWithTheMock() {
///         Container.shared.payments.register { MockPayments() }
///         XCTAssertTrue(Container.shared.checkout().pay())
///     }
/// }
/// ```
///
/// The snapshot is taken before `setUp` and restored after `tearDown` and the
/// teardown blocks, so mocks registered in `setUp` are undone too. By default it
/// covers `Container.shared`; override ``containers`` to add custom containers.
/// See ``ContainerSnapshot`` for what is saved.
open class ContainerTestCase: XCTestCase {
    /// The containers each test restores; `[Container.shared]` unless overridden.
    ///
    /// ```swift
    /// override var containers: [any ManagedContainer] { [Container.shared, OrderContainer.shared] }
    /// ```
    open var containers: [any ManagedContainer] {
        [Container.shared]
    }

    /// Runs the test, from `setUp` to `tearDown`, between a snapshot of
    /// ``containers`` and its restore.
    open override func invokeTest() {
        let snapshot = ContainerSnapshot(of: containers)
        defer { snapshot.restore() }
        XCTestScope.run(name) { super.invokeTest() }
    }
}
#endif
