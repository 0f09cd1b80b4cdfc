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
    /// Instances kept by the graph scope until the cycle ends.
    @exclusivity(unchecked) @usableFromInline package var graph: ContiguousArray<GraphEntry> = []
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

    /// A cache entry this thread is building.
    package struct OwnedBuild {
        package let cells: CellSet
        package let parameter: ParameterKey?
        package let lock: FactoryLock
        package let extraLock: FactoryLock?

        /// Runs `body` with the locks that guard ``cells`` held.
        func withLocks<Result>(_ body: () -> Result) -> Result {
            lock.withLock {
                guard let extraLock else { return body() }
                return extraLock.withLock(body)
            }
        }
    }

    /// Records a build this thread starts. Out of line, as is ``endOwnedBuild()``:
    /// the array's growth path would otherwise sit in the frame of every level of
    /// a nested resolution.
    @inline(never)
    package func beginOwnedBuild(_ build: OwnedBuild) {
        builds.append(build)
    }

    /// Forgets the innermost build this thread started, which has ended.
    @inline(never)
    package func endOwnedBuild() {
        builds.removeLast()
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
    }

    /// A graph-scoped instance of this cycle.
    @usableFromInline
    package struct GraphEntry {
        @usableFromInline package let name: StaticString
        @usableFromInline package let valueType: ObjectIdentifier
        @usableFromInline package let parameterType: ObjectIdentifier
        @usableFromInline package let container: ObjectIdentifier
        @usableFromInline package let parameter: AnyHashable?
        @usableFromInline package let cell: CacheCell

        @inlinable
        package init(
            name: StaticString, valueType: ObjectIdentifier, parameterType: ObjectIdentifier, container: ObjectIdentifier,
            parameter: AnyHashable?, cell: CacheCell
        ) {
            self.name = name
            self.valueType = valueType
            self.parameterType = parameterType
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
        package static func result<T>(_ value: T, code: UInt8) -> String {
            let any: Any = value
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
    @_alwaysEmitIntoClient @inline(__always)
    package func enter<P>(_ frame: Frame, parameterType: P.Type, checkCycles: Bool) {
        if checkCycles || isValidating {
            var index = 0
            while index < depth {
                let other = frames[index]
                if other.container == frame.container
                    && ObjectIdentifier(other.valueType) == ObjectIdentifier(frame.valueType)
                    && ObjectIdentifier(other.parameterType) == ObjectIdentifier(frame.parameterType)
                    && FactoryName.equal(other.name, frame.name)
                    && Self.sameParameter(other.parameter, frame.parameter, P.self)
                {
                    failCycle(frame)
                }
                index &+= 1
            }
        }
        if depth == capacity { grow() }
        (frames + depth).initialize(to: frame)
        depth &+= 1
    }

    /// Leaves the current build; at the end of a cycle releases its graph
    /// instances and writes its trace.
    @_alwaysEmitIntoClient @inline(__always)
    package func leave() {
        depth &-= 1
        if depth == 0 && !(graph.isEmpty && trace.isEmpty) {
            endCycle()
        }
    }

    /// Whether two frames' parameters are equal: always for a parameterless
    /// factory, by `==` when the type is `Equatable`, never otherwise (values that
    /// cannot be compared are taken to differ, so recursion over them is allowed).
    @inlinable
    static func sameParameter<P>(_ lhs: UnsafeRawPointer?, _ rhs: UnsafeRawPointer?, _ type: P.Type) -> Bool {
        guard let lhs, let rhs else { return true }
        return equalParameters(lhs, rhs, type)
    }

    @usableFromInline
    static func equalParameters<P>(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ type: P.Type) -> Bool {
        guard let equatable = P.self as? any Equatable.Type else { return false }
        return equatable.factoryEqual(lhs, rhs)
    }

    @usableFromInline
    func failCycle(_ frame: Frame) -> Never {
        FactoryError.fail(.circularDependency(chain: (chainKeys + [frame.key]).map(\.description).joined(separator: " > ")))
    }

    /// Whether graph validation runs on this thread (it always looks for cycles).
    @usableFromInline
    package var isValidating: Bool {
        validation != nil
    }

    /// The keys being built on this thread, outermost first.
    package var chainKeys: [FactoryKey] {
        (0..<depth).map { frames[$0].key }
    }

    @usableFromInline
    func grow() {
        let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = bigger
        capacity *= 2
    }

    @usableFromInline
    func endCycle() {
        // Graph instances are released one at a time, after being taken out: a
        // deinit that resolves starts a new cycle on a consistent context.
        while let entry = graph.popLast() {
            _ = entry
        }
        if !trace.isEmpty { flushTrace() }
    }

    // MARK: Graph scope

    /// Where this cycle keeps the graph-scoped instance for the key, or `nil`.
    ///
    /// Not generic, and it returns an index rather than a `T?`: the general path
    /// runs unspecialized, where a `T?` costs a metadata lookup for `Optional<T>`
    /// and copying an entry out of the array costs a retain and a release of each
    /// of its references. The entries are compared in place.
    @usableFromInline
    package func graphIndex(
        _ name: StaticString, valueType: ObjectIdentifier, parameterType: ObjectIdentifier, container: ObjectIdentifier,
        parameter: AnyHashable?
    ) -> Int? {
        graph.indices.first { index in
            guard
                graph[index].container == container && graph[index].valueType == valueType
                    && graph[index].parameterType == parameterType && FactoryName.equal(graph[index].name, name)
            else { return false }
            // Copied out before comparing: `==` is the parameter type's, user code that may
            // resolve graph factories and so append to `graph` (which may move its storage).
            // Entries are only removed at the end of a cycle, so the indices stay valid.
            let stored = graph[index].parameter
            return stored == parameter
        }
    }

    /// The instance that graph entry `index` (from ``graphIndex(_:valueType:parameterType:container:parameter:)``
    /// called with `T`'s identity) holds.
    @inlinable
    package func graphValue<T>(at index: Int, as type: T.Type) -> T {
        // The entry matched `T`'s identity, and keepInGraph made its cell for that `T`.
        unsafeDowncast(graph[index].cell, to: StrongCell<T>.self).value
    }

    /// Keeps `value` for the rest of this cycle.
    @inlinable
    package func keepInGraph<T>(
        _ value: T, _ name: StaticString, _ parameterType: ObjectIdentifier, container: ObjectIdentifier,
        parameter: AnyHashable?
    ) {
        let cell = StrongCell(value, scopeID: ObjectIdentifier(ResolutionContext.self), createdAt: 0, era: 0)
        graph.append(
            GraphEntry(
                name: name, valueType: ObjectIdentifier(T.self), parameterType: parameterType, container: container,
                parameter: parameter, cell: cell))
    }

    // MARK: Trace

    /// Reserves the trace line of a resolution about to start (at the current depth) and returns its index.
    @inline(never)
    package func beginTrace(_ key: FactoryKey, logger: LoggerBox) -> Int {
        trace.append(TraceLine(depth: depth, key: key, result: "", logger: logger))
        return trace.count - 1
    }

    /// Fills in trace line `index`: `code` (ASCII) is `F` (definition), `R` (registration),
    /// `O` (context override) for a new instance, `C` for a cached one.
    @usableFromInline
    package func endTrace<T>(_ index: Int, value: T, code: UInt8) {
        trace[index].result = TraceLine.result(value, code: code)
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
