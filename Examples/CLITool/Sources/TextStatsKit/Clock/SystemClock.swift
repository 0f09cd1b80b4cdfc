/// The process's monotonic clock.
public struct SystemClock: Clocking {
    private let origin = ContinuousClock.now

    /// Creates a clock whose origin is now.
    public init() {}

    /// The current wall-clock time.
    public var now: Duration {
        ContinuousClock.now - origin
    }
}
