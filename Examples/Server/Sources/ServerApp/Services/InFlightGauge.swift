import Synchronization

/// Tracks how many `/whoami` requests are running at this moment.
///
/// Registered `.singleton`. ``wait(_:forAtLeast:timeout:)`` lets clients make
/// requests overlap on purpose, which is how the tests prove that concurrent
/// requests keep their request-scoped services apart.
public final class InFlightGauge: Sendable {
    /// One running request.
    public struct Ticket: Sendable, Hashable {
        fileprivate let number: Int
    }

    private struct State {
        var nextTicket = 0
        /// For each running request, the most requests that ran at once since it entered.
        var mostSeen: [Ticket: Int] = [:]
        var peak = 0
    }

    private let state = Mutex(State())

    /// Creates an empty gauge.
    public init() {}

    /// Marks one request as started.
    public func enter() -> Ticket {
        state.withLock { state in
            let ticket = Ticket(number: state.nextTicket)
            state.nextTicket += 1
            state.mostSeen[ticket] = 0
            let current = state.mostSeen.count
            for running in state.mostSeen.keys {
                state.mostSeen[running] = max(state.mostSeen[running]!, current)
            }
            state.peak = max(state.peak, current)
            return ticket
        }
    }

    /// Marks the request holding `ticket` as finished.
    public func leave(_ ticket: Ticket) {
        state.withLock { _ = $0.mostSeen.removeValue(forKey: ticket) }
    }

    /// Requests running now.
    public var current: Int {
        state.withLock { $0.mostSeen.count }
    }

    /// The most requests that ever ran at once.
    public var peak: Int {
        state.withLock { $0.peak }
    }

    /// The most requests that ran at once at some moment since `ticket` entered,
    /// the one holding it included: 1 while no other request ran alongside it.
    ///
    /// - Parameter ticket: A ticket that has not left yet; 0 for one that has.
    public func mostAtOnce(since ticket: Ticket) -> Int {
        state.withLock { $0.mostSeen[ticket] ?? 0 }
    }

    /// Waits until, at some moment since `ticket` entered, at least `count`
    /// requests ran at once; gives up after `timeout`.
    ///
    /// - Returns: `true` if that many requests overlapped, `false` on timeout.
    public func wait(_ ticket: Ticket, forAtLeast count: Int, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while mostAtOnce(since: ticket) < count {
            if ContinuousClock.now >= deadline {
                return false
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
