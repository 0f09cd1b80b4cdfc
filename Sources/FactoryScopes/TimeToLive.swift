/// A per-container cache whose instances expire a fixed time after they were built.
///
/// A resolution after the interval builds a new instance. Hits do not extend
/// the lifetime: an instance built at `t` is rebuilt on the first resolution at
/// or after `t + seconds`. The clock is monotonic, so changing the wall clock
/// does not expire or extend anything.
public final class TimeToLive: Scope, @unchecked Sendable {
    // Sendable: only an immutable interval; instances live in ScopeStorage under its lock.

    /// The interval after which an instance expires.
    public let seconds: Double

    /// Creates a cache whose instances live `seconds` (at least one nanosecond).
    public init(seconds: Double) {
        precondition(
            seconds >= 0 && seconds.isFinite, "FactoryScopes: timeToLive needs a finite, non-negative interval, got \(seconds)")
        self.seconds = seconds
        let nanoseconds = max(UInt64(seconds * 1_000_000_000), 1)
        super.init(strategy: .container(.expiring(nanoseconds: nanoseconds)))
    }
}
