import CFactoryAtomics

/// One resolution of any kind of factory, from its beginning (``init(_:chain:)``) to ``end(_:_:isNew:)``: the steps
/// every kind shares, written once and not generic. Between them the cache decides (``ContainerManager/decide(_:_:_:prepared:joiner:)``),
/// and a kind does only what is its own: run the closure, and wait for another's build as a thread
/// (GeneralPath.swift) or as a task (AsyncPath.swift).
struct Resolution {
    var options: ResolvedOptions
    let flags: Int
    /// The resolving thread's context, for a synchronous resolution; unretained: `begin` and `end` run on one thread in
    /// one synchronous call, and a thread's context is released only by its exit destructor, which cannot run inside
    /// it. `nil` for an asynchronous resolution, whose awaits may move it to other threads.
    let context: Unmanaged<ResolutionContext>?
    var trace: TraceMark?
    /// Watched for captive dependencies: a synchronous resolution is on its context's watch stack until it ends.
    var watched = false
    /// A synchronous build whose instance is cached (an async one's is its ``AsyncBuild``'s).
    var claim: BuildClaim?
    /// A graph build: its instance is kept for the rest of the cycle.
    var keepsInCycle = false
    /// Its build's event, while a `FactoryProfile` recording includes its container.
    var profile: ProfileRecorder.Mark?

    /// The beginning: flags, shutdown, the options merged once, strict mode and promises, the captive-dependency watch
    /// and the trace. When the container is shut down (``isShutDown``) it stops there: a synchronous kind stops the
    /// program, an asynchronous one throws. `chain` is the running task's resolutions for an asynchronous resolution
    /// (`.some(nil)` outside any), `nil` for a synchronous one.
    static func begin(_ registration: FactoryRegistration, chain: AsyncChain??) -> Resolution {
        let manager = registration.manager
        var flags = manager.flags.value
        if flags & ContainerManager.Flag.ready.rawValue == 0 {
            manager.waitForAutoRegister()
            flags = manager.flags.value
        }
        let context = chain == nil ? ResolutionContext.currentUnmanaged : nil
        let options = ResolvedOptions.now(registration, flags: flags)
        // Made once, at the end: a value built up and then returned would be copied out.
        if flags & ContainerManager.Flag.shutDown.rawValue != 0 {
            return Resolution(options: options, flags: flags, context: context, watched: false, trace: nil)
        }
        // No registration or context override applies: what strict mode calls unmocked.
        if options.code == UInt8(ascii: "F") { reportDefinitionUse(registration, options, flags: flags) }
        let task = chain ?? nil
        // Graph validation runs here, or a watched build is under way around this resolution; only per-request
        // containers, what async builds capture most, pay to look up the task's chain from a synchronous one.
        let watching =
            if let context = context?.takeUnretainedValue() {
                context.validation != nil || !context.watched.isEmpty
                    || (flags & ContainerManager.Flag.perRequest.rawValue != 0 && AsyncChain.current?.watch != nil)
            } else {
                task?.watch != nil
            }
        let watched = flags & ContainerManager.Flag.observed.rawValue != 0 || watching
        if watched { watch(registration, options, flags: flags, sync: chain == nil, task) }
        let trace = flags & ContainerManager.Flag.trace.rawValue != 0 ? beginTrace(registration, context, task) : nil
        return Resolution(options: options, flags: flags, context: context, watched: watched, trace: trace)
    }

    private init(
        options: consuming ResolvedOptions, flags: Int, context: Unmanaged<ResolutionContext>?, watched: Bool,
        trace: consuming TraceMark?
    ) {
        self.options = options
        self.flags = flags
        self.context = context
        self.watched = watched
        self.trace = trace
    }

    /// Strict mode hears of it; an unregistered `promised()` factory is reported.
    private static func reportDefinitionUse(_ registration: FactoryRegistration, _ resolved: ResolvedOptions, flags: Int) {
        if flags & ContainerManager.Flag.strict.rawValue != 0 { registration.manager.reportUnmocked(registration.key) }
        guard resolved.promised && flags & ContainerManager.Flag.promiseTriggersError.rawValue != 0 else { return }
        // DEBUG only, as Factory does; graph validation whenever the flag is on, so release test runs find it.
        #if DEBUG
        FactoryError.report(.unregisteredPromise(registration.key))
        #else
        if ResolutionContext.current.validation != nil { FactoryError.report(.unregisteredPromise(registration.key)) }
        #endif
    }

    var isShutDown: Bool { flags & ContainerManager.Flag.shutDown.rawValue != 0 }

    /// The end every kind shares, with the instance found or built: a trace line is written (unless `traced` already),
    /// the watch ends, and the decorators run (the factory's, then the container's). No lock held.
    func end(_ registration: FactoryRegistration, _ value: UnsafeRawPointer, isNew: Bool, traced: Bool) {
        if traced, let trace {
            trace.fill(AnyValue.load(value, registration.valueType), code: isNew ? options.code : UInt8(ascii: "C"))
        }
        // Before the decorators: what they resolve is not part of this build.
        if watched, let context { context._withUnsafeGuaranteedRef { _ = $0.watched.removeLast() } }
        options.decorator?.decorate(value, isNew: isNew)
        if flags & ContainerManager.Flag.decorator.rawValue != 0, let decorator = registration.manager.publishedDecorator {
            decorator(AnyValue.load(value, registration.valueType))
        }
        guard let trace else { return }
        if let context {
            context._withUnsafeGuaranteedRef { if $0.depth == 0 { $0.endCycle() } }
        } else if trace.depth == 0 {
            trace.cycle.logAll()
        }
    }

    /// An asynchronous resolution that threw: its trace line says so.
    func end(throwing error: any Error) {
        guard let trace else { return }
        trace.cycle.fill(trace.index, result: "threw \(type(of: error))")
        if trace.depth == 0 { trace.cycle.logAll() }
    }
}

// MARK: - Captive dependencies

extension Resolution {
    /// Checks this resolution against the builds it runs inside (this thread's, then its task's), reports a capture,
    /// tells graph validation the edge. A synchronous resolution stays on its context's watch stack until it ends; an
    /// asynchronous one's watch goes with its chain node (``AsyncChain/watch``).
    private static func watch(
        _ registration: FactoryRegistration, _ options: ResolvedOptions, flags: Int, sync: Bool, _ task: AsyncChain?
    ) {
        let context = ResolutionContext.current
        let depth = sync ? context.depth : 0
        let resolution = WatchedResolution(registration, options, flags: flags, depth: depth)
        let chain = sync ? AsyncChain.current : task
        if sync, let holder = context.watched.last(where: { $0.lifetime != .transparent }) {
            if holder.captures(resolution) {
                let keys = context.chainKeys
                resolution.reportCaptured(
                    by: holder, holderChain: Array(keys.prefix(holder.depth + 1)), chain: keys + [resolution.key])
            }
        } else {
            chain?.reportIfHolderCaptures(resolution, through: sync ? context.chainKeys : [])
        }
        if let validation = context.validation {
            validation.resolved(
                resolution.key, scope: resolution.scopeLabel, parent: depth > 0 ? context.frames[depth - 1].key : chain?.key)
        }
        if sync { context.watched.append(resolution) }
    }
}

// MARK: - Trace

extension Resolution {
    /// This resolution's line, reserved now so lines come in start order: one level below the resolution it runs
    /// inside, on this thread or (for the outermost one here) in its task, or the first line of a new cycle.
    private static func beginTrace(
        _ registration: FactoryRegistration, _ context: Unmanaged<ResolutionContext>?, _ task: AsyncChain?
    ) -> TraceMark {
        let logger = registration.manager.loggerBox
        guard let context else {
            let position = task?.trace.map { TracePosition(cycle: $0.cycle, depth: $0.depth + 1) }
            return TraceMark(position ?? TracePosition(cycle: TraceCycle(), depth: 0), registration.key, logger)
        }
        return context._withUnsafeGuaranteedRef { context in
            if context.trace == nil {
                context.trace =
                    AsyncChain.current?.trace.map { TracePosition(cycle: $0.cycle, depth: $0.depth + 1) }
                    ?? TracePosition(cycle: TraceCycle(), depth: 0)
            }
            let cycle = context.trace!
            return TraceMark(TracePosition(cycle: cycle.cycle, depth: cycle.depth + context.depth), registration.key, logger)
        }
    }
}

/// Where a trace line goes: its cycle and its depth there.
package struct TracePosition: Sendable {
    package let cycle: TraceCycle
    package let depth: Int
}

/// A resolution's reserved line.
struct TraceMark {
    let cycle: TraceCycle
    let index: Int
    let depth: Int

    init(_ position: TracePosition, _ key: FactoryKey, _ logger: LoggerBox) {
        cycle = position.cycle
        depth = position.depth
        index = cycle.reserve(key, depth: depth, logger: logger)
    }

    /// `code` (`F`, `R`, `O` or `C`), the instance's address (0 for a value) and its type.
    func fill(_ value: Any, code: UInt8) {
        let identity = type(of: value) is AnyClass ? String(UInt(bitPattern: ObjectIdentifier(value as AnyObject))) : "0"
        cycle.fill(index, result: "\(Character(Unicode.Scalar(code))):\(identity) \(type(of: value))")
    }
}

/// One resolution cycle's trace (``ContainerManager/trace``), synchronous or asynchronous: its lines, reserved when
/// each resolution starts and filled when it ends. The cycle's outermost resolution logs them all when it ends, and a
/// line filled later (an async build that outlived its cancelled starter) logs itself. A synchronous cycle run inside
/// an async closure writes into that async cycle, one level below the closure's resolution.
package final class TraceCycle: Sendable {
    private struct Line {
        var depth: Int
        var key: FactoryKey
        var result = ""
        var logger: LoggerBox

        func log() { logger.log("\(depth): \(String(repeating: "    ", count: depth))\(key) = \(result)") }
    }

    private struct Lines {
        var lines: [Line] = []
        var logged = false
    }

    private let state = LockedBox(Lines())

    func reserve(_ key: FactoryKey, depth: Int, logger: LoggerBox) -> Int {
        state.withLock { state in
            state.lines.append(Line(depth: depth, key: key, logger: logger))
            return state.lines.count - 1
        }
    }

    /// Logs it at once if the cycle was logged already. Lines are logged with no lock held: a logger may resolve.
    func fill(_ index: Int, result: String) {
        let late = state.withLock { state -> Line? in
            state.lines[index].result = result
            return state.logged ? state.lines[index] : nil
        }
        late?.log()
    }

    func logAll() {
        let lines = state.withLock { state -> [Line] in
            guard !state.logged else { return [] }
            state.logged = true
            return state.lines
        }
        for line in lines { line.log() }
    }
}

/// The user's logger, boxed for trace lines; called on the resolving thread with no lock held.
package final class LoggerBox: @unchecked Sendable {
    // Sendable: immutable; the closure runs on resolving threads, as `ContainerManager.logger` documents.
    package let log: (String) -> Void

    package init(_ log: @escaping (String) -> Void) { self.log = log }
}

package enum AnyValue {
    /// A copy of the instance at `address`, of type `type`, as `Any`.
    package static func load(_ address: UnsafeRawPointer, _ type: Any.Type) -> Any {
        func load<V>(_: V.Type) -> Any { address.assumingMemoryBound(to: V.self).pointee }
        return load(type)
    }
}
