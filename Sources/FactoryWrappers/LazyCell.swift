/// The state behind ``LazyInjected`` and ``WeakLazyInjected``: nothing yet, a
/// resolution in flight, or the stored slot.
///
/// The first access installs a core `BuildLatch` and runs the resolution holding
/// only that latch, which belongs to this cell alone; threads that arrive while it
/// runs wait on the latch instead of resolving again, so the factory runs once.
/// A thread only ever waits for a value its own resolution needs, so waits can
/// only form a loop when the dependencies do. On one thread such a loop comes back
/// to a cell it is building, and the latch reports it as a circular dependency
/// instead of blocking forever; a loop split across threads blocks, as it does for
/// the core's cached scopes.
///
/// Copies of a wrapper share one cell, so `$service.resolve()` on a copy updates
/// the property it came from.
final class LazyCell<Slot>: Sendable {
    private enum Content {
        case empty
        /// `previous` is what a refresh replaces, still reported by ``peek()`` meanwhile.
        case building(BuildLatch, previous: Slot?)
        case ready(Slot)
    }

    private enum Step {
        case done(Slot)
        case wait(BuildLatch)
        case build(BuildLatch)
    }

    private let content = LockedBox(Content.empty)

    init() {}

    /// The stored slot, built by `build` on first use, or always when `refresh` is set.
    ///
    /// `key` names the factory in the cycle report. `build` runs with no lock held
    /// that another cell or the container could need.
    func slot(key: FactoryKey, refresh: Bool = false, build: () -> Slot) -> Slot {
        while true {
            let step = content.withLock { content -> Step in
                switch content {
                case .ready(let slot) where !refresh:
                    return .done(slot)
                case .building(let latch, _):
                    return .wait(latch)
                case .empty:
                    let latch = BuildLatch()
                    content = .building(latch, previous: nil)
                    return .build(latch)
                case .ready(let previous):
                    let latch = BuildLatch()
                    content = .building(latch, previous: previous)
                    return .build(latch)
                }
            }
            switch step {
            case .done(let slot):
                return slot
            case .wait(let latch):
                // A refresh that waited still builds on the next turn: the caller asked for a new value.
                latch.wait(for: key)
            case .build(let latch):
                let slot = build()
                content.withLock { content in
                    // A value assigned through the setter while we built wins over ours.
                    if case .building(let current, _) = content, current === latch {
                        content = .ready(slot)
                    }
                }
                latch.open()
                return slot
            }
        }
    }

    /// The stored slot, or `nil` before the first resolution finishes; during a
    /// refresh, the slot being replaced.
    func peek() -> Slot? {
        content.withLock { content in
            switch content {
            case .empty: return nil
            case .building(_, let previous): return previous
            case .ready(let slot): return slot
            }
        }
    }

    /// Replaces the slot; a resolution in flight finishes without overwriting it.
    func store(_ slot: Slot) {
        content.withLock { $0 = .ready(slot) }
    }
}
