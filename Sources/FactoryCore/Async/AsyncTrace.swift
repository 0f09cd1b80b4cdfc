#if SwiftConcurrency
// `manager.trace` for asynchronous factories. A synchronous cycle's trace lives
// on its thread (``ResolutionContext``); an asynchronous one crosses `await`s and
// the tasks that run builds, so its lines live in an `AsyncTraceCycle` that the
// resolution chain (``AsyncChain``) carries. The lines are those of synchronous
// factories, written the same way.

/// Where an asynchronous resolution's line sits in the trace of its cycle:
/// resolutions its closure makes, asynchronous or synchronous, are one level deeper.
package struct AsyncTracePosition: Sendable {
    package let cycle: AsyncTraceCycle
    package let depth: Int
}

/// The trace of one cycle of asynchronous resolutions: the outermost one and
/// everything its closure resolves. A line is reserved when a resolution starts,
/// so lines come in the order resolutions started, and filled in when it ends;
/// the outermost resolution logs them all when it ends. A line that ends after
/// that (a build that outlived its cancelled starter) is logged when it ends.
package final class AsyncTraceCycle: Sendable {
    private struct Lines {
        var lines: [ResolutionContext.TraceLine] = []
        var logged = false
    }

    private let state = LockedBox(Lines())

    /// Reserves the line of a resolution of `key` at `depth`; returns its index.
    func reserve(_ key: FactoryKey, depth: Int, logger: LoggerBox) -> Int {
        state.withLock { state in
            state.lines.append(ResolutionContext.TraceLine(depth: depth, key: key, result: "", logger: logger))
            return state.lines.count - 1
        }
    }

    /// Fills in line `index` with `result`, and logs it at once if the cycle was logged already.
    func fill(_ index: Int, result: String) {
        let late = state.withLock { state -> ResolutionContext.TraceLine? in
            state.lines[index].result = result
            return state.logged ? state.lines[index] : nil
        }
        late?.log()
    }

    /// Adds the lines of a synchronous cycle run inside the resolution at `depth`, one level below it.
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

    /// Logs every line, once: the outermost resolution ended.
    func logAll() {
        let lines = state.withLock { state -> [ResolutionContext.TraceLine] in
            guard !state.logged else { return [] }
            state.logged = true
            return state.lines
        }
        for line in lines { line.log() }
    }
}

/// The trace line of one asynchronous resolution, when its container traces.
struct AsyncTraceLine {
    let position: AsyncTracePosition
    private let index: Int

    /// Reserves the line of a resolution of `key` inside `chain`: in the cycle
    /// of the resolution the chain runs inside, one level deeper, or as the
    /// outermost line of a new cycle.
    init(_ key: FactoryKey, in chain: AsyncChain?, logger: LoggerBox) {
        if let outer = chain?.trace {
            position = AsyncTracePosition(cycle: outer.cycle, depth: outer.depth + 1)
        } else {
            position = AsyncTracePosition(cycle: AsyncTraceCycle(), depth: 0)
        }
        index = position.cycle.reserve(key, depth: position.depth, logger: logger)
    }

    /// Ends the line with what the resolution gave: `code` as a synchronous line's.
    func end<T>(_ value: T, code: UInt8) {
        position.cycle.fill(index, result: ResolutionContext.TraceLine.result(value, code: code))
        if position.depth == 0 { position.cycle.logAll() }
    }

    /// Ends the line of a resolution that threw.
    func end(throwing error: any Error) {
        position.cycle.fill(index, result: "threw \(type(of: error))")
        if position.depth == 0 { position.cycle.logAll() }
    }
}
#endif
