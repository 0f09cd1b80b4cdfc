import CFactoryAtomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The state of the resolution cycle running on the current thread.
///
/// A cycle is one top-level resolution plus everything resolved inside its factory
/// closures. Closures are synchronous, so a cycle never leaves its thread, and each
/// thread has its own context: two threads resolving at once share nothing here and
/// never wait for each other because of it.
///
/// Factory closures, decorators, loggers and `deinit`s run while a context is in
/// use and may resolve again on the same thread, re-entering it. Every mutation
/// here therefore completes before user code runs: frames are pushed and popped
/// around a closure, never during one, and graph instances and trace lines are
/// taken out one at a time before they are released or logged. That is why the
/// properties can skip the runtime's exclusivity tracking, which would cost more
/// than a resolution: no access to them is ever open while user code runs, and
/// only the owning thread touches them (the wait graph reads a waiting thread's
/// chain under its lock, while that thread is blocked).
@usableFromInline
package final class ResolutionContext {
    /// The factories being built on this thread, outermost first.
    @exclusivity(unchecked) @usableFromInline package var frames: UnsafeMutablePointer<Frame>
    @exclusivity(unchecked) @usableFromInline package var capacity: Int
    /// How many resolutions are in progress on this thread; 0 between cycles.
    @exclusivity(unchecked) @usableFromInline package var depth = 0
    /// Instances a scope keeps until the cycle ends (the graph scope's), in the order kept.
    @exclusivity(unchecked) package var cycleInstances: ContiguousArray<CycleInstance> = []
    /// Trace lines of this cycle, written out when it ends.
    @exclusivity(unchecked) @usableFromInline package var trace: [TraceLine] = []
    /// Containers whose `autoRegister()` is running on this thread.
    @exclusivity(unchecked) package var autoRegistering: [ObjectIdentifier] = []
    /// FactoryTesting graph validation running on this thread.
    @exclusivity(unchecked) package var validation: (any ResolutionValidating)?
    /// Resolutions on this thread that the captive-dependency check and graph
    /// validation watch, innermost last (see ``watch(_:scope:ttl:flags:manager:)``).
    @exclusivity(unchecked) package var watched: [WatchedResolution] = []
    /// The thread this context waits for (guarded by ``WaitGraph``'s lock).
    @exclusivity(unchecked) package var waitingFor: ResolutionContext?
    /// The factory this context waits for (guarded by ``WaitGraph``'s lock).
    @exclusivity(unchecked) package var waitingKey: FactoryKey?
    /// Where this context waits (guarded by ``WaitGraph``'s lock).
    @exclusivity(unchecked) package var waitingAt: WaitPoint?
    /// Cache entries this thread is building now, innermost last, so that a
    /// graph validation that parks the thread can hand them back (see ``abandonBuilds()``).
    @exclusivity(unchecked) package var builds: [OwnedBuild] = []
    /// The thread's number in messages.
    package let threadID = cfactory_thread_id()

    /// A cache entry this thread is building: the claim that ends it, kept here
    /// rather than on the stack of the resolution that runs it, and the lock of
    /// the container that placed it.
    package struct OwnedBuild {
        let claim: BuildClaim
        let lock: FactoryLock

        var cells: CellSet { claim.location.cells }
        var parameter: ParameterKey? { claim.parameterKey }

        /// Runs `body` with the locks that guard ``cells`` held.
        func withLocks<Result>(_ body: () -> Result) -> Result {
            lock.withLock { claim.location.withExtraLock(body) }
        }
    }

    /// Records a build this thread starts. Out of line, as is ``endOwnedBuild()``:
    /// the array's growth path would otherwise sit in the frame of every level of
    /// a nested resolution.
    @inline(never)
    func beginOwnedBuild(_ claim: BuildClaim, lock: FactoryLock) {
        builds.append(OwnedBuild(claim: claim, lock: lock))
    }

    /// Forgets the innermost build this thread started, which has ended, and
    /// returns its claim.
    @inline(never)
    func endOwnedBuild() -> BuildClaim {
        builds.removeLast().claim
    }

    /// Gives up every build this thread has under way, waking their waiters, who
    /// then build themselves. For a thread that will never return (FactoryTesting
    /// parks a validation thread that hit a cycle).
    package func abandonBuilds() {
        while let build = builds.popLast() {
            var garbage = Garbage()
            defer { garbage.release() }
            let point = build.withLocks { () -> WaitPoint? in
                if let parameter = build.parameter {
                    guard build.cells.parameterGates[parameter]?.build === self else { return nil }
                    return build.cells.setParameterGate(nil, for: parameter, &garbage)?.waitPoint
                }
                guard build.cells.gate.build === self else { return nil }
                defer { build.cells.gate = BuildGate() }
                return build.cells.gate.waitPoint
            }
            point?.open()
        }
    }

    /// One factory being built: what cycle detection and messages need.
    @usableFromInline
    package struct Frame {
        @usableFromInline package let name: StaticString
        @usableFromInline package let valueType: Any.Type
        @usableFromInline package let parameterType: Any.Type
        @usableFromInline package let containerType: any AnyObject.Type
        @usableFromInline package let container: ObjectIdentifier
        /// The parameter of a `ParameterFactory` resolution, on the resolving
        /// frame's stack (valid while the frame is), or `nil` for a `Factory`.
        @usableFromInline package let parameter: UnsafeRawPointer?

        @inlinable
        package init(
            name: StaticString, valueType: Any.Type, parameterType: Any.Type, containerType: any AnyObject.Type,
            container: ObjectIdentifier, parameter: UnsafeRawPointer?
        ) {
            self.name = name
            self.valueType = valueType
            self.parameterType = parameterType
            self.containerType = containerType
            self.container = container
            self.parameter = parameter
        }

        package var key: FactoryKey {
            FactoryKey(name: name, valueType: valueType, parameterType: parameterType, containerType: containerType)
        }

        /// Whether `other` is a build of the same factory of the same container
        /// instance with an equal parameter: resolving it inside this one is a cycle.
        func isSameBuild(as other: Frame) -> Bool {
            // The value type first: it tells most frames of a chain apart at once.
            ObjectIdentifier(valueType) == ObjectIdentifier(other.valueType) && container == other.container
                && ObjectIdentifier(parameterType) == ObjectIdentifier(other.parameterType)
                && FactoryName.equal(name, other.name)
                && ResolutionContext.sameParameter(parameter, other.parameter, parameterType)
        }
    }

    /// An instance a scope keeps for the rest of this cycle: one factory's, of one
    /// container instance, for one parameter (with `scopeOnParameters`).
    package struct CycleInstance {
        package let key: FactoryKey
        package let container: ObjectIdentifier
        package let parameter: AnyHashable?
        package let cell: CacheCell

        package init(key: FactoryKey, container: ObjectIdentifier, parameter: AnyHashable?, cell: CacheCell) {
            self.key = key
            self.container = container
            self.parameter = parameter
            self.cell = cell
        }
    }

    /// One line of the trace, filled in when its resolution ends.
    @usableFromInline
    package struct TraceLine {
        package var depth: Int
        package var key: FactoryKey
        package var result: String
        package var logger: LoggerBox

        /// How a line names what a resolution gave: `code` (ASCII) `F`, `R`, `O` or
        /// `C`, the instance's address (0 for a value) and its type.
        package static func result(_ any: Any, code: UInt8) -> String {
            let identity: String
            if type(of: any) is AnyClass {
                identity = String(UInt(bitPattern: ObjectIdentifier(any as AnyObject)))
            } else {
                identity = "0"
            }
            return "\(Character(Unicode.Scalar(code))):\(identity) \(type(of: any))"
        }

        /// Writes the line through its logger: depth, indentation, factory, result.
        package func log() {
            let indent = String(repeating: "    ", count: depth)
            logger.log("\(depth): \(indent)\(key) = \(result)")
        }
    }

    private init() {
        capacity = 16
        frames = .allocate(capacity: capacity)
    }

    deinit {
        frames.deallocate()
    }

    /// The context of the calling thread, created on first use.
    @inlinable
    package static var current: ResolutionContext {
        if let raw = cfactory_context() {
            return Unmanaged<ResolutionContext>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// The context of the calling thread, unretained: the thread keeps it alive,
    /// and counting references to it would cost more than using it.
    @_alwaysEmitIntoClient @inline(__always)
    package static var currentUnmanaged: Unmanaged<ResolutionContext> {
        if let raw = cfactory_context() {
            return Unmanaged<ResolutionContext>.fromOpaque(raw)
        }
        return Unmanaged.passUnretained(makeCurrent())
    }

    @usableFromInline @inline(never)
    static func makeCurrent() -> ResolutionContext {
        let context = ResolutionContext()
        cfactory_set_context(Unmanaged.passRetained(context).toOpaque()) { raw in
            guard let raw else { return }
            Unmanaged<ResolutionContext>.fromOpaque(raw).release()
        }
        return context
    }

    // MARK: Frames and cycles

    /// Enters the build of `frame`; with `checkCycles`, stops the program if the
    /// same factory of the same container instance, with an equal parameter, is
    /// already being built on this thread (a circular dependency). Recursion with
    /// different parameters is not a cycle.
    @inline(__always)
    package func enter(_ frame: Frame, checkCycles: Bool) {
        if checkCycles || isValidating {
            var index = 0
            while index < depth {
                if frames[index].isSameBuild(as: frame) { failCycle(frame) }
                index &+= 1
            }
        }
        if depth == capacity { grow() }
        (frames + depth).initialize(to: frame)
        depth &+= 1
    }

    /// Leaves the current build; at the end of a cycle releases the instances
    /// kept for it and writes its trace.
    @inline(__always)
    package func leave() {
        depth &-= 1
        if depth == 0 && !(cycleInstances.isEmpty && trace.isEmpty) {
            endCycle()
        }
    }

    /// Whether two frames' parameters, of type `type`, are equal: always for a
    /// parameterless factory, by `==` when the type is `Equatable`, never otherwise
    /// (values that cannot be compared are taken to differ, so recursion over
    /// them is allowed).
    static func sameParameter(_ lhs: UnsafeRawPointer?, _ rhs: UnsafeRawPointer?, _ type: Any.Type) -> Bool {
        guard let lhs, let rhs else { return true }
        guard let equatable = type as? any Equatable.Type else { return false }
        return equatable.factoryEqual(lhs, rhs)
    }

    func failCycle(_ frame: Frame) -> Never {
        FactoryError.fail(.circularDependency(chain: (chainKeys + [frame.key]).map(\.description).joined(separator: " > ")))
    }

    /// Whether graph validation runs on this thread (it always looks for cycles).
    package var isValidating: Bool {
        validation != nil
    }

    /// The keys being built on this thread, outermost first.
    package var chainKeys: [FactoryKey] {
        (0..<depth).map { frames[$0].key }
    }

    func grow() {
        let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = bigger
        capacity *= 2
    }

    func endCycle() {
        // Instances are released one at a time, after being taken out: a deinit
        // that resolves starts a new cycle on a consistent context.
        while let entry = cycleInstances.popLast() {
            _ = entry
        }
        if !trace.isEmpty { flushTrace() }
    }

    // MARK: Trace

    /// Reserves the trace line of a resolution about to start (at the current depth) and returns its index.
    @inline(never)
    package func beginTrace(_ key: FactoryKey, logger: LoggerBox) -> Int {
        trace.append(TraceLine(depth: depth, key: key, result: "", logger: logger))
        return trace.count - 1
    }

    /// Fills in trace line `index` with the instance at `value`, of type `type`:
    /// `code` (ASCII) is `F` (definition), `R` (registration), `O` (context
    /// override) for a new instance, `C` for a cached one.
    package func endTrace(_ index: Int, value: UnsafeRawPointer, type: Any.Type, code: UInt8) {
        trace[index].result = TraceLine.result(AnyValue.load(value, type), code: code)
    }

    private func flushTrace() {
        // Lines are taken out first: a logger that resolves (and traces) starts a new cycle.
        var lines: [TraceLine] = []
        swap(&lines, &trace)
        #if SwiftConcurrency
        // A cycle inside an asynchronous factory's closure is part of that
        // resolution's trace, one level deeper.
        if let outer = AsyncChain.current?.trace {
            outer.cycle.append(lines, below: outer.depth)
            return
        }
        #endif
        for line in lines { line.log() }
    }
}

extension Equatable {
    /// `==` on two values of this type behind raw pointers.
    static func factoryEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        lhs.assumingMemoryBound(to: Self.self).pointee == rhs.assumingMemoryBound(to: Self.self).pointee
    }
}

/// A logger closure, boxed so that trace lines can carry it. The closure is the
/// user's; the library calls it on the thread that resolved, with no lock held.
package final class LoggerBox {
    package let log: (String) -> Void

    package init(_ log: @escaping (String) -> Void) {
        self.log = log
    }
}
