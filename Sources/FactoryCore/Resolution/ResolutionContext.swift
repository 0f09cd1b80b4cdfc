import CFactoryAtomics

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
    @exclusivity(unchecked) var cycleInstances: ContiguousArray<CycleInstance> = []  // the graph scope's
    /// The running cycle's trace and the depth of its outermost resolution there, once a resolution in it traced.
    @exclusivity(unchecked) var trace: TracePosition?
    @exclusivity(unchecked) package var validation: (any ResolutionValidating)?
    @exclusivity(unchecked) package var watched: [WatchedResolution] = []  // innermost last
    // The next three are guarded by WaitGraph's lock.
    @exclusivity(unchecked) package var waitingFor: ResolutionContext?
    @exclusivity(unchecked) package var waitingKey: FactoryKey?
    @exclusivity(unchecked) package var waitingAt: WaitPoint?
    /// The general path's builds under way on this thread, innermost last: what each carries across its closure,
    /// and its claim, so a validation that parks the thread can hand them back (``abandonBuilds()``). A buffer of its
    /// own, like `frames`, so a build moves in and out with no copy and no uniqueness check.
    @exclusivity(unchecked) var builds: UnsafeMutablePointer<Resolution>
    @exclusivity(unchecked) var buildCount = 0
    @exclusivity(unchecked) var buildCapacity: Int
    package let threadID = cfactory_thread_id()

    /// Wakes every waiter of this thread's builds to build themselves: for a thread that never
    /// returns (FactoryTesting parks a validation thread that hit a cycle).
    package func abandonBuilds() {
        while buildCount > 0 {
            buildCount -= 1
            let build = (builds + buildCount).move()
            build.claim?.end(self, storing: nil, type: Void.self).cleared?.waitPoint?.open()
        }
    }

    @usableFromInline
    package struct Frame {
        @usableFromInline package let key: FactoryKey
        @usableFromInline package let container: ObjectIdentifier
        /// On the resolving frame's stack (valid while it is); `nil` for a `Factory`.
        @usableFromInline package let parameter: UnsafeRawPointer?

        /// Same factory, container instance and parameter: a cycle.
        func isSameBuild(as other: Frame) -> Bool {
            // The value type first: it tells most frames of a chain apart at once.
            ObjectIdentifier(key.valueType) == ObjectIdentifier(other.key.valueType) && container == other.container
                && key == other.key && ResolutionContext.sameParameter(parameter, other.parameter, key.parameterType)
        }
    }

    /// A graph instance, kept until the cycle ends.
    struct CycleInstance {
        let key: FactoryKey
        let container: ObjectIdentifier
        let parameter: ParameterKey?  // boxed: a factory without one carries a null reference, not an existential
        let cell: CacheCell
    }

    private init() {
        capacity = 16
        frames = .allocate(capacity: capacity)
        buildCapacity = 8
        builds = .allocate(capacity: buildCapacity)
    }

    deinit {
        frames.deallocate()
        builds.deinitialize(count: buildCount)
        builds.deallocate()
    }

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
        if depth == 0 && !(cycleInstances.isEmpty && trace == nil) {
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

    func growBuilds() { Self.double(&builds, count: buildCount, capacity: &buildCapacity) }

    func grow() { Self.double(&frames, count: depth, capacity: &capacity) }

    private static func double<Element>(_ buffer: inout UnsafeMutablePointer<Element>, count: Int, capacity: inout Int) {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
    }

    /// The cycle's graph instances go, one at a time, taken out first: a resolving `deinit` starts a new cycle on a
    /// consistent context. Its trace is logged when it began it (else its async resolution logs it).
    func endCycle() {
        while let entry = cycleInstances.popLast() {
            _ = entry
        }
        guard let trace else { return }
        self.trace = nil
        if trace.depth == 0 { trace.cycle.logAll() }
    }

    /// The graph scope's instance of `key` this cycle built; with `parameter` (`scopeOnParameters`), for an equal one.
    func findInCycle(_ key: FactoryKey, container: ObjectIdentifier, parameter: ParameterKey?) -> FoundInstance? {
        for index in cycleInstances.indices where cycleInstances[index].container == container {
            guard cycleInstances[index].key == key else { continue }
            // Copied out before comparing: `==` is the parameter type's, user code that may resolve graph factories
            // and so append to the instances (which may move their storage). Instances are only removed when the
            // cycle ends, so indices stay valid.
            let stored = cycleInstances[index].parameter
            if let parameter {
                guard let stored, stored.value == parameter.value else { continue }
            } else if stored != nil {
                continue
            }
            return cycleInstances[index].cell.found()
        }
        return nil
    }

    /// Keeps `value`, of `key`'s value type, for the rest of the cycle.
    func keepInCycle(_ key: FactoryKey, container: ObjectIdentifier, parameter: ParameterKey?, value: UnsafeRawPointer) {
        guard
            let cell = CacheCell.make(
                copying: value, type: key.valueType, weak: false, scopeID: ObjectIdentifier(Self.self), createdAt: 0,
                epoch: 0, shutdown: nil)
        else { return }
        cycleInstances.append(CycleInstance(key: key, container: container, parameter: parameter, cell: cell))
    }
}

extension Equatable {
    static func factoryEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        lhs.assumingMemoryBound(to: Self.self).pointee == rhs.assumingMemoryBound(to: Self.self).pointee
    }
}
