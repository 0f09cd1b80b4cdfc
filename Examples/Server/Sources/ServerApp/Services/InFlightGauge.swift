import Synchronization

/// Tracks how many `/whoami` requests are running at this moment.
///
/// Registered `.singleton`. `wait(forAtLeast:timeout:)` lets a client force two
/// requests to overlap, which is how the tests prove that concurrent requests
/// keep their request-scoped services apart.
public final class InFlightGauge: Sendable {
    private struct State {
        var current = 0
        var peak = 0
    }

    private let state = Mutex(State())

    /// Creates an empty gauge.
    public init() {}

    /// Marks one request as started.
    public func enter() {
        state.withLock { state in
            state.current += 1
            state.peak = max(state.peak, state.current)
        }
    }

    /// Marks one request as finished.
    public func leave() {
        state.withLock { $0.current -= 1 }
    }

    /// Requests running now.
    public var current: Int {
        state.withLock { $0.current }
    }

    /// The most requests that ever ran at once.
    public var peak: Int {
        state.withLock { $0.peak }
    }

    /// Waits until at least `count` requests run at once, or until `timeout` passes.
    ///
    /// - Returns: `true` if the requests overlapped, `false` on timeout.
    public func wait(forAtLeast count: Int, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while current < count {
            if ContinuousClock.now >= deadline {
                return false
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
