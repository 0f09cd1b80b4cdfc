/// A reusable set of mock registrations for one container type, written the way
/// the container's factories are used.
///
/// The closure receives the container, so each line reads like the code that
/// resolves it, with `register` in place of the call:
///
/// ```swift
/// extension Container {
///     var api: Factory<any APIClient> { self { LiveAPIClient() }.singleton }
///     var clock: Factory<any Clock> { self { SystemClock() } }
/// }
///
/// let offline = Mocks<Container> {
///     $0.api.register { StubAPIClient(responses: .offline) }
///     $0.clock.register { FixedClock(.noon) }
/// }
/// ```
///
/// Apply a set for one test or a whole suite with the `.container(_:)` trait
/// (`@Suite(.container(offline))`), for a block with `withMocks(_:_:)`,
/// or directly with `container.mock(_:)`.
/// Sets combine with `+`; later registrations win.
///
/// Registrations are ordinary `register` calls: modifiers chained after them
/// persist (`$0.api.register { Stub() }.scope(.cached)`), and a container's reset, pop or
/// snapshot restore removes them.
public struct Mocks<C: ManagedContainer>: Sendable {
    private let registrations: [@Sendable (C) -> Void]

    /// Creates a set from one closure that registers mocks in the container it receives.
    ///
    /// - Parameter register: Registers the mocks; it runs each time the set is applied.
    public init(_ register: @escaping @Sendable (C) -> Void) {
        registrations = [register]
    }

    private init(registrations: [@Sendable (C) -> Void]) {
        self.registrations = registrations
    }

    /// Registers every mock of the set in `container`, in order.
    ///
    /// - Parameter container: The container to register in.
    public func register(in container: C) {
        for registration in registrations { registration(container) }
    }

    /// The mocks of `lhs`, then those of `rhs`, which win where both register a factory.
    public static func + (lhs: Mocks<C>, rhs: Mocks<C>) -> Mocks<C> {
        Mocks(registrations: lhs.registrations + rhs.registrations)
    }
}

extension Mocks where C: SharedContainer {
    /// Registers every mock of the set in `C.shared`.
    public func register() {
        register(in: C.shared)
    }
}
