/// A monotonic clock.
public protocol Clocking: Sendable {
    /// Time elapsed since an arbitrary, fixed origin.
    var now: Duration { get }
}

/// The process's monotonic clock.
public struct SystemClock: Clocking {
    private let origin = ContinuousClock.now

    /// Creates a clock whose origin is now.
    public init() {}

    public var now: Duration {
        ContinuousClock.now - origin
    }
}

/// A clock that never moves, for reproducible output.
public struct FixedClock: Clocking {
    /// Creates a stopped clock.
    public init() {}

    public var now: Duration {
        .zero
    }
}
