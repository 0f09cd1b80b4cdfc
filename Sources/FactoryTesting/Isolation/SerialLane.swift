/// An async mutual exclusion: one holder at a time, the others wait in order.
///
/// Tests that isolate a `static let` container snapshot and restore that one
/// shared instance, so they must not overlap; they take this lane for their whole
/// run. A single lane for every such container, rather than one per container,
/// means two tests that each take several can never wait for each other in a circle.
actor SerialLane {
    /// The lane of every `static let` container.
    static let shared = SerialLane()

    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// How many tasks wait for the lane; lets a test order their arrivals without sleeping.
    var waiterCount: Int { waiters.count }

    /// Waits until the lane is free and takes it.
    func acquire() async {
        guard isHeld else {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the lane to the next waiter, or frees it.
    func release() {
        if waiters.isEmpty {
            isHeld = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
