/// A clock that never moves, for reproducible output.
public struct FixedClock: Clocking {
    /// Creates a stopped clock.
    public init() {}

    public var now: Duration {
        .zero
    }
}
