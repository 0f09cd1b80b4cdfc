extension ManagedContainer {
    /// Registers several mocks in this container in one block that reads like the container.
    ///
    /// ```swift
    /// Container.shared.mock {
    ///     $0.api.register { StubAPIClient() }
    ///     $0.clock.register { FixedClock(.noon) }
    /// }
    /// ```
    ///
    /// The registrations are ordinary `register` calls: they last until the
    /// container is reset or restored. Inside a `.container` trait or a
    /// `withContainer { }` block that is the end of the test.
    ///
    /// - Parameter register: Registers mocks in the container it receives.
    public func mock(_ register: (Self) -> Void) {
        register(self)
    }

    /// Registers every mock of `mocks` in this container, in order.
    ///
    /// - Parameter mocks: Reusable sets of registrations; see `Mocks`.
    public func mock(_ mocks: Mocks<Self>...) {
        for set in mocks { set.register(in: self) }
    }
}
