#if SwiftConcurrency
// `manager.trace` for async factories. A sync cycle's trace lives on its thread; an async one
// crosses `await`s and build tasks, so its lines live in an `AsyncTraceCycle` the ``AsyncChain``
// carries. The lines are the sync factories', written the same way.

/// Resolutions its closure makes, async or sync, are one level deeper.
package struct AsyncTracePosition: Sendable {
    package let cycle: AsyncTraceCycle
    package let depth: Int
}

/// One async cycle's lines, reserved when a resolution starts (so in start order) and filled when
/// it ends; the outermost logs them all when it ends, and a later line (a build that outlived its
/// cancelled starter) is logged when it ends.
package final class AsyncTraceCycle: Sendable {
    private struct Lines {
        var lines: [ResolutionContext.TraceLine] = []
        var logged = false
    }

    private let state = LockedBox(Lines())

    func reserve(_ key: FactoryKey, depth: Int, logger: LoggerBox) -> Int {
        state.withLock { state in
            state.lines.append(ResolutionContext.TraceLine(depth: depth, key: key, result: "", logger: logger))
            return state.lines.count - 1
        }
    }

    /// Logs it at once if the cycle was logged already.
    func fill(_ index: Int, result: String) {
        let late = state.withLock { state -> ResolutionContext.TraceLine? in
            state.lines[index].result = result
            return state.logged ? state.lines[index] : nil
        }
        late?.log()
    }

    /// A sync cycle run inside the resolution at `depth`, one level below it.
    func append(_ lines: [ResolutionContext.TraceLine], below depth: Int) {
        let shifted = lines.map { line in
            var line = line
            line.depth += depth + 1
            return line
        }
        let late = state.withLock { state -> [ResolutionContext.TraceLine] in
            state.lines.append(contentsOf: shifted)
            return state.logged ? shifted : []
        }
        for line in late { line.log() }
    }

    func logAll() {
        let lines = state.withLock { state -> [ResolutionContext.TraceLine] in
            guard !state.logged else { return [] }
            state.logged = true
            return state.lines
        }
        for line in lines { line.log() }
    }
}

struct AsyncTraceLine {
    let position: AsyncTracePosition
    private let index: Int

    /// One level below `chain`'s traced resolution, or the outermost line of a new cycle.
    init(_ key: FactoryKey, in chain: AsyncChain?, logger: LoggerBox) {
        if let outer = chain?.trace {
            position = AsyncTracePosition(cycle: outer.cycle, depth: outer.depth + 1)
        } else {
            position = AsyncTracePosition(cycle: AsyncTraceCycle(), depth: 0)
        }
        index = position.cycle.reserve(key, depth: position.depth, logger: logger)
    }

    func end<T>(_ value: T, code: UInt8) {
        position.cycle.fill(index, result: ResolutionContext.TraceLine.result(value, code: code))
        if position.depth == 0 { position.cycle.logAll() }
    }

    func end(throwing error: any Error) {
        position.cycle.fill(index, result: "threw \(type(of: error))")
        if position.depth == 0 { position.cycle.logAll() }
    }
}
#endif
