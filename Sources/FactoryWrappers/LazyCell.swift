/// The state behind ``LazyInjected`` and ``WeakLazyInjected``: nothing yet, a
/// resolution in flight, or the stored slot.
///
/// The first access records itself as the builder and runs the resolution with no
/// lock held; threads that arrive while it runs wait for it instead of resolving
/// again, so the factory runs once. A thread that comes back to a cell it is
/// building is a circular dependency; a thread about to wait for a builder that
/// (through other waits) waits for it is a cycle across threads: both stop the
/// program with the chain instead of blocking forever.
///
/// Copies of a wrapper share one cell, so `$service.resolve()` on a copy updates
/// the property it came from.
final class LazyCell<Slot>: Sendable {
    private enum Content {
        case empty
        /// `previous` is what a refresh replaces, still reported by ``peek()`` meanwhile.
        case building(ResolutionContext, WaitPoint?, previous: Slot?)
        case ready(Slot)
    }

    private enum Step {
        case done(Slot)
        case wait(ResolutionContext, WaitPoint)
        case cycle
        case build
    }

    private let content = LockedBox(Content.empty)

    init() {}

    /// The stored slot, built by `build` on first use, or always when `refresh` is set.
    ///
    /// `key` names the factory in a cycle report. `build` runs with no lock held.
    func slot(key: FactoryKey, refresh: Bool = false, build: () -> Slot) -> Slot {
        let context = ResolutionContext.current
        while true {
            let step = content.withLock { content -> Step in
                switch content {
                case .ready(let slot) where !refresh:
                    return .done(slot)
                case .building(let builder, let waitPoint, let previous):
                    if builder === context { return .cycle }
                    let point = waitPoint ?? WaitPoint()
                    content = .building(builder, point, previous: previous)
                    return .wait(builder, point)
                case .empty:
                    content = .building(context, nil, previous: nil)
                    return .build
                case .ready(let previous):
                    content = .building(context, nil, previous: previous)
                    return .build
                }
            }
            switch step {
            case .done(let slot):
                return slot
            case .cycle:
                FactoryError.fail(
                    .circularDependency(chain: (context.chainKeys + [key]).map(\.description).joined(separator: " > ")))
            case .wait(let builder, let point):
                // A refresh that waited still builds on the next turn: the caller asked for a new value.
                WaitGraph.wait(context, for: builder, key: key, at: point)
            case .build:
                let slot = build()
                let (point, replaced) = content.withLock { content -> (WaitPoint?, Content?) in
                    // A value assigned through the setter while we built wins over ours.
                    guard case .building(let builder, let point, _) = content, builder === context else {
                        return (nil, nil)
                    }
                    return (point, Self.replace(&content, with: .ready(slot)))
                }
                point?.open()
                _ = replaced  // released here, unlocked
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
            case .building(_, _, let previous): return previous
            case .ready(let slot): return slot
            }
        }
    }

    /// Replaces the slot; a resolution in flight finishes without overwriting it,
    /// and threads waiting for it get this slot.
    func store(_ slot: Slot) {
        let (point, replaced) = content.withLock { content -> (WaitPoint?, Content) in
            var point: WaitPoint?
            if case .building(_, let waiting, _) = content { point = waiting }
            return (point, Self.replace(&content, with: .ready(slot)))
        }
        point?.open()
        _ = replaced  // released here, unlocked
    }

    /// Puts `new` in `content` and hands back what it held, so that the caller
    /// releases the replaced instance after unlocking: its `deinit` is user code,
    /// which may read this very property.
    private static func replace(_ content: inout Content, with new: Content) -> Content {
        let old = content
        content = new
        return old
    }
}
