/// An async mutual exclusion: one holder at a time, the others wait in order.
///
/// Tests that isolate a `static let` container snapshot and restore that one
/// shared instance, so they must not overlap; they take this lane for their whole
/// run. A single lane for every such container, rather than one per container,
/// means two tests that each take several can never wait for each other in a circle.
///
/// A wait is bounded: a waiter that sees the lane stay with one holder for
/// `patience` seconds stops waiting and throws ``SerialLaneTimeout``, naming what
/// it waited for and who held the lane, so a test that hangs while holding it
/// fails the tests queued behind it instead of hanging the whole run. A waiting
/// task that is cancelled (a test's time limit) stops waiting at once.
actor SerialLane {
    /// The lane of every `static let` container. A test may hold it for up to ten
    /// minutes (XCTest's default allowance) before those waiting give up.
    static let shared = SerialLane(patience: 600)

    private struct Waiter {
        let id: Int
        let name: String
        let continuation: CheckedContinuation<Void, any Error>
        var timer: Task<Void, Never>?
    }

    /// How long, in seconds, a waiter waits while the lane does not change hands.
    let patience: Double
    /// Who holds the lane (what it isolates), `nil` when it is free.
    private var holder: String?
    /// How many times the lane changed hands: a waiter's patience restarts each time.
    private var handoffs = 0
    private var waiters: [Waiter] = []
    private var nextID = 0

    /// A lane whose waiters give up after `patience` seconds without a handoff.
    init(patience: Double) {
        self.patience = patience
    }

    /// How many tasks wait for the lane; lets a test order their arrivals without sleeping.
    var waiterCount: Int { waiters.count }

    /// Whether a task holds the lane.
    var isHeld: Bool { holder != nil }

    /// Waits until the lane is free and takes it for `name` (what the holder
    /// isolates, for the messages of those who wait behind it).
    ///
    /// - Throws: ``SerialLaneTimeout`` when the lane stayed with one holder for
    ///   ``patience`` seconds; `CancellationError` when the task is cancelled.
    func acquire(for name: String) async throws {
        guard holder != nil else {
            holder = name
            handoffs += 1
            return
        }
        try Task.checkCancellation()
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiters.append(Waiter(id: id, name: name, continuation: continuation))
                let timer = Task { await self.watch(id) }
                if let index = waiters.firstIndex(where: { $0.id == id }) { waiters[index].timer = timer }
            }
        } onCancel: {
            Task { await self.remove(id, throwing: CancellationError()) }
        }
    }

    /// Hands the lane to the next waiter, or frees it.
    func release() {
        guard !waiters.isEmpty else {
            holder = nil
            return
        }
        let next = waiters.removeFirst()
        holder = next.name
        handoffs += 1
        next.timer?.cancel()
        next.continuation.resume()
    }

    /// Ends waiter `id`'s wait once the lane has not changed hands for ``patience``
    /// seconds; returns as soon as the waiter is gone (it got the lane, or was cancelled).
    private func watch(_ id: Int) async {
        var seen = handoffs
        while true {
            try? await Task.sleep(nanoseconds: UInt64(patience * 1_000_000_000))
            guard let waiter = waiters.first(where: { $0.id == id }) else { return }
            if handoffs == seen {
                let timeout = SerialLaneTimeout(waiter: waiter.name, holder: holder ?? "nothing", seconds: patience)
                remove(id, throwing: timeout)
                return
            }
            seen = handoffs
        }
    }

    private func remove(_ id: Int, throwing error: any Error) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.timer?.cancel()
        waiter.continuation.resume(throwing: error)
    }
}

/// Thrown to a test that waited too long for the lane of `static let` containers.
struct SerialLaneTimeout: Error, CustomStringConvertible {
    /// What the waiting test isolates.
    let waiter: String
    /// What the test holding the lane isolates.
    let holder: String
    let seconds: Double

    var description: String {
        let seconds = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
        return "FactoryTesting: a test isolating \(waiter) waited \(seconds) s for the lane that tests isolating "
            + "`static let` containers take one at a time, held all that time by a test isolating \(holder): that "
            + "test hangs, or runs longer than the lane's patience"
    }
}
