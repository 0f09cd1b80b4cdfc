/// A clock that never moves, for reproducible output.
public struct FixedClock: Clocking {
    /// Creates a stopped clock.
    public init() {}

    /// The fixed instant this clock was made with, on every call.
    public var now: Duration {
        .zero
    }
}
