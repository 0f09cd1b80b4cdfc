/// Runs `operation`, then puts `Container.shared` back as it was: registrations,
/// options, scope caches and singletons, whether `operation` returns or throws.
///
/// ```swift
/// func testCheckoutUsesTheMock() throws {
///     try withContainer {
///         Container.shared.payments.register { MockPayments() }
///         XCTAssertTrue(try Container.shared.checkout().pay())
///     }
///     // Container.shared.payments is the real one again here.
/// }
/// ```
///
/// The container is the one `Container.shared` names when the call starts.
/// See ``ContainerSnapshot`` for what is saved, and for why this suits tests that
/// run one at a time (XCTest); Swift Testing tests should use the `.container` trait.
///
/// - Parameter operation: The code that may register mocks and resolve.
/// - Returns: What `operation` returns.
@discardableResult
public func withContainer<R>(_ operation: () throws -> R) rethrows -> R {
    try withContainer(Container.shared) { _ in try operation() }
}

/// Runs `operation` with `container`, then puts the container back as it was,
/// whether `operation` returns or throws.
///
/// ```swift
/// try withContainer(OrderContainer.shared) { orders in
///     orders.checkout.register { MockCheckout() }
///     try placeOrder()
/// }
/// ```
///
/// - Parameters:
///   - container: The container to save and restore; any container, including
///     custom ones declared with `static let shared`.
///   - operation: The code that may register mocks and resolve; it receives `container`.
/// - Returns: What `operation` returns.
@discardableResult
public func withContainer<C: ManagedContainer, R>(_ container: C, _ operation: (C) throws -> R) rethrows -> R {
    let snapshot = ContainerSnapshot(of: container)
    defer { snapshot.restore() }
    return try XCTestScope.run("") { try operation(container) }
}

/// Runs async `operation`, then puts `Container.shared` back as it was, whether
/// `operation` returns or throws. See the synchronous `withContainer(_:)`.
///
/// - Parameters:
///   - isolation: The caller's actor, inherited so that nothing crosses actors.
///   - operation: The code that may register mocks and resolve.
/// - Returns: What `operation` returns.
@discardableResult
public func withContainer<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
) async rethrows -> R {
    try await withContainer(Container.shared) { _ in try await operation() }
}

/// Runs async `operation` with `container`, then puts the container back as it
/// was, whether `operation` returns or throws.
///
/// - Parameters:
///   - container: The container to save and restore.
///   - isolation: The caller's actor, inherited so that nothing crosses actors.
///   - operation: The code that may register mocks and resolve; it receives `container`.
/// - Returns: What `operation` returns.
@discardableResult
public func withContainer<C: ManagedContainer, R>(
    _ container: C,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: (C) async throws -> R
) async rethrows -> R {
    let snapshot = ContainerSnapshot(of: container)
    defer { snapshot.restore() }
    return try await XCTestScope.run("") { try await operation(container) }
}

/// Registers `mocks` in `C.shared`, runs `operation`, then puts the container back
/// as it was, whether `operation` returns or throws.
///
/// ```swift
/// let checkoutMocks = Mocks<Container> {
///     $0.payments.register { MockPayments() }
///     $0.analytics.register { NoAnalytics() }
/// }
///
/// func testCheckout() throws {
///     try withMocks(checkoutMocks) {
///         XCTAssertTrue(try Container.shared.checkout().pay())
///     }
/// }
/// ```
///
/// - Parameters:
///   - mocks: The registrations to make for the duration of `operation`.
///   - operation: The code under test.
/// - Returns: What `operation` returns.
@discardableResult
public func withMocks<C: SharedContainer, R>(_ mocks: Mocks<C>, _ operation: () throws -> R) rethrows -> R {
    try withContainer(C.shared) { container in
        mocks.register(in: container)
        return try operation()
    }
}

/// Registers `mocks` in `C.shared`, runs async `operation`, then puts the container
/// back as it was, whether `operation` returns or throws.
///
/// - Parameters:
///   - mocks: The registrations to make for the duration of `operation`.
///   - isolation: The caller's actor, inherited so that nothing crosses actors.
///   - operation: The code under test.
/// - Returns: What `operation` returns.
@discardableResult
public func withMocks<C: SharedContainer, R>(
    _ mocks: Mocks<C>,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
) async rethrows -> R {
    try await withContainer(C.shared) { container in
        mocks.register(in: container)
        return try await operation()
    }
}
