import Synchronization

/// A counter several threads may advance.
final class Ticks: Sendable {
    private let value = Mutex(0)

    /// The next tick, from 1.
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
