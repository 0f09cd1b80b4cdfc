import CFactoryAtomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The resolution cycle on the current thread: a top-level resolution and everything its
/// (synchronous) closures resolve. Each thread has its own, so threads share nothing here.
///
/// User code (closures, decorators, loggers, `deinit`s) may re-enter it on the same thread, so every mutation completes
/// before user code runs: frames are pushed and popped around a closure, and cycle instances and trace lines are taken
/// out one at a time before release or logging. Hence `@exclusivity(unchecked)`: no access is open while user code
/// runs, and only the owning thread touches these (the wait graph reads a blocked thread's chain under its lock).
@usableFromInline
package final class ResolutionContext {
    @exclusivity(unchecked) @usableFromInline package var frames: UnsafeMutablePointer<Frame>  // outermost first
    @exclusivity(unchecked) @usableFromInline package var capacity: Int
    @exclusivity(unchecked) @usableFromInline package var depth = 0  // 0 between cycles
    @exclusivity(unchecked) package var cycleInstances: ContiguousArray<CycleInstance> = []  // the graph scope's
    @exclusivity(unchecked) @usableFromInline package var trace: [TraceLine] = []
    @exclusivity(unchecked) package var validation: (any ResolutionValidating)?
    @exclusivity(unchecked) package var watched: [WatchedResolution] = []  // innermost last
    // The next three are guarded by WaitGraph's lock.
    @exclusivity(unchecked) package var waitingFor: ResolutionContext?
    @exclusivity(unchecked) package var waitingKey: FactoryKey?
    @exclusivity(unchecked) package var waitingAt: WaitPoint?
    /// Innermost last, so a validation that parks the thread can hand them back (``abandonBuilds()``).
    @exclusivity(unchecked) package var builds: [OwnedBuild] = []
    package let threadID = cfactory_thread_id()

    /// Kept here, not on the running resolution's stack, with the placing container's lock.
    package struct OwnedBuild {
        let claim: BuildClaim
        let lock: FactoryLock

        var cells: CellSet { claim.location.cells }
        var parameter: ParameterKey? { claim.parameterKey }

        /// With the locks guarding ``cells`` held.
        func withLocks<Result>(_ body: () -> Result) -> Result {
            lock.withLock { claim.location.withExtraLock(body) }
        }
    }

    /// Out of line, as is ``endOwnedBuild()``: the array's growth path would sit in every nested frame.
    @inline(never)
    func beginOwnedBuild(_ claim: BuildClaim, lock: FactoryLock) {
        builds.append(OwnedBuild(claim: claim, lock: lock))
    }

    @inline(never)
    func endOwnedBuild() -> BuildClaim { builds.removeLast().claim }

    /// Wakes every waiter of this thread's builds to build themselves: for a thread that never
    /// returns (FactoryTesting parks a validation thread that hit a cycle).
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

    @usableFromInline
    package struct Frame {
        @usableFromInline package let name: StaticString
        @usableFromInline package let valueType: Any.Type
        @usableFromInline package let parameterType: Any.Type
        @usableFromInline package let containerType: any AnyObject.Type
        @usableFromInline package let container: ObjectIdentifier
        /// On the resolving frame's stack (valid while it is); `nil` for a `Factory`.
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

        /// Same factory, container instance and parameter: a cycle.
        func isSameBuild(as other: Frame) -> Bool {
            // The value type first: it tells most frames of a chain apart at once.
            ObjectIdentifier(valueType) == ObjectIdentifier(other.valueType) && container == other.container
                && ObjectIdentifier(parameterType) == ObjectIdentifier(other.parameterType)
                && FactoryName.equal(name, other.name)
                && ResolutionContext.sameParameter(parameter, other.parameter, parameterType)
        }
    }

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

    @usableFromInline
    package struct TraceLine {
        package var depth: Int
        package var key: FactoryKey
        package var result: String
        package var logger: LoggerBox

        /// `code` (`F`, `R`, `O` or `C`), the instance's address (0 for a value) and its type.
        package static func result(_ any: Any, code: UInt8) -> String {
            let identity: String
            if type(of: any) is AnyClass {
                identity = String(UInt(bitPattern: ObjectIdentifier(any as AnyObject)))
            } else {
                identity = "0"
            }
            return "\(Character(Unicode.Scalar(code))):\(identity) \(type(of: any))"
        }

        package func log() {
            let indent = String(repeating: "    ", count: depth)
            logger.log("\(depth): \(indent)\(key) = \(result)")
        }
    }

    private init() {
        capacity = 16
        frames = .allocate(capacity: capacity)
    }

    deinit { frames.deallocate() }

    @inlinable
    package static var current: ResolutionContext {
        if let raw = cfactory_context() {
            return Unmanaged<ResolutionContext>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// Unretained: the thread keeps it alive, and counting references would cost more than using it.
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

    /// With `checkCycles`, stops the program on a cycle; recursion with another parameter is none.
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

    @inline(__always)
    package func leave() {
        depth &-= 1
        if depth == 0 && !(cycleInstances.isEmpty && trace.isEmpty) {
            endCycle()
        }
    }

    /// Parameterless: equal; `Equatable`: `==`; else never (recursion over them is allowed).
    static func sameParameter(_ lhs: UnsafeRawPointer?, _ rhs: UnsafeRawPointer?, _ type: Any.Type) -> Bool {
        guard let lhs, let rhs else { return true }
        guard let equatable = type as? any Equatable.Type else { return false }
        return equatable.factoryEqual(lhs, rhs)
    }

    func failCycle(_ frame: Frame) -> Never {
        FactoryError.fail(.circularDependency(chain: (chainKeys + [frame.key]).map(\.description).joined(separator: " > ")))
    }

    package var isValidating: Bool { validation != nil }  // graph validation always looks for cycles

    package var chainKeys: [FactoryKey] { (0..<depth).map { frames[$0].key } }

    func grow() {
        let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = bigger
        capacity *= 2
    }

    func endCycle() {
        // One at a time, taken out first: a resolving deinit starts a new cycle on a consistent context.
        while let entry = cycleInstances.popLast() {
            _ = entry
        }
        if !trace.isEmpty { flushTrace() }
    }

    @inline(never)
    package func beginTrace(_ key: FactoryKey, logger: LoggerBox) -> Int {
        trace.append(TraceLine(depth: depth, key: key, result: "", logger: logger))
        return trace.count - 1
    }

    /// `code`: `F` definition, `R` registration, `O` context override, `C` cached.
    package func endTrace(_ index: Int, value: UnsafeRawPointer, type: Any.Type, code: UInt8) {
        trace[index].result = TraceLine.result(AnyValue.load(value, type), code: code)
    }

    private func flushTrace() {
        // Lines are taken out first: a logger that resolves (and traces) starts a new cycle.
        var lines: [TraceLine] = []
        swap(&lines, &trace)
        #if SwiftConcurrency
        // Inside an async factory's closure: part of that resolution's trace, one level deeper.
        if let outer = AsyncChain.current?.trace {
            outer.cycle.append(lines, below: outer.depth)
            return
        }
        #endif
        for line in lines { line.log() }
    }
}

extension Equatable {
    static func factoryEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        lhs.assumingMemoryBound(to: Self.self).pointee == rhs.assumingMemoryBound(to: Self.self).pointee
    }
}

/// The user's logger, boxed for trace lines; called on the resolving thread with no lock held.
package final class LoggerBox {
    package let log: (String) -> Void

    package init(_ log: @escaping (String) -> Void) { self.log = log }
}
