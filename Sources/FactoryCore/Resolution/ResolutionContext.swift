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
/// The properties skip the runtime's exclusivity tracking: only the owning thread
/// ever reaches its context, and the tracking costs more than a resolution.
@usableFromInline
package final class ResolutionContext {
    /// How many resolutions are in progress on this thread; 0 between cycles.
    @exclusivity(unchecked) @usableFromInline package var depth = 0
    /// The factories being resolved, outermost first, for cycle detection.
    @exclusivity(unchecked) @usableFromInline package var chain: ContiguousArray<FactoryKey> = []
    /// Instances kept by the graph scope until the cycle ends.
    @exclusivity(unchecked) @usableFromInline package var graph: [ScopeStorage.SlotKey: AnyObject] = [:]
    /// Trace lines of this cycle, written out when it ends.
    @exclusivity(unchecked) @usableFromInline package var trace: [TraceLine] = []
    /// Containers whose `autoRegister()` is running on this thread.
    @exclusivity(unchecked) package var autoRegistering: [ObjectIdentifier] = []
    /// FactoryTesting graph validation running on this thread; see ResolutionContext+Validation.swift.
    @exclusivity(unchecked) package var validation: (any ResolutionValidating)?

    @usableFromInline
    package struct TraceLine {
        package var depth: Int
        package var key: FactoryKey
        package var result: String
        package var logger: @Sendable (String) -> Void
    }

    private init() {
        chain.reserveCapacity(16)
    }

    /// The context of the calling thread, created on first use.
    @inlinable
    package static var current: ResolutionContext {
        if let raw = pthread_getspecific(contextKey) {
            return Unmanaged<ResolutionContext>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> ResolutionContext {
        let context = ResolutionContext()
        pthread_setspecific(contextKey, Unmanaged.passRetained(context).toOpaque())
        return context
    }

    /// Enters a resolution of `key`; stops the program if `key` is already being
    /// resolved on this thread and cycle checking is on.
    @inlinable
    package func enter(_ key: FactoryKey, checkCycles: Bool) {
        if checkCycles || isValidating {  // graph validation always looks for cycles
            for existing in chain where existing == key {
                failCycle(key)
            }
        }
        chain.append(key)
        depth += 1
    }

    @usableFromInline
    func failCycle(_ key: FactoryKey) -> Never {
        FactoryError.fail(.circularDependency(chain: chainDescription(appending: key)))
    }

    /// Leaves the current resolution; at the end of a cycle clears the graph cache and writes the trace.
    @inlinable
    package func leave() {
        chain.removeLast()
        depth -= 1
        if depth == 0 && !(graph.isEmpty && trace.isEmpty) {
            endCycle()
        }
    }

    @usableFromInline
    func endCycle() {
        if !graph.isEmpty { graph.removeAll(keepingCapacity: true) }
        if !trace.isEmpty { flushTrace() }
    }

    /// The graph-scoped instance for `slotKey` in this cycle, built on first use.
    @inlinable
    package func resolveInGraph<T>(_ slotKey: ScopeStorage.SlotKey, build: () -> T) -> (value: T, isNew: Bool) {
        if let box = graph[slotKey] {
            return (unsafeDowncast(box, to: StrongBox<T>.self).value, false)
        }
        let value = build()
        graph[slotKey] = StrongBox(value)
        return (value, true)
    }

    /// `A<X> > B<Y> > A<X>`: the chain on this thread followed by `key`.
    package func chainDescription(appending key: FactoryKey) -> String {
        (chain.map(\.description) + [key.description]).joined(separator: " > ")
    }

    /// Reserves the trace line for the resolution being entered and returns its index.
    @usableFromInline
    package func beginTrace(_ key: FactoryKey, logger: @escaping @Sendable (String) -> Void) -> Int {
        trace.append(TraceLine(depth: depth - 1, key: key, result: "", logger: logger))
        return trace.count - 1
    }

    /// Fills in the result of trace line `index`.
    @usableFromInline
    package func endTrace<T>(_ index: Int, value: T, isNew: Bool) {
        trace[index].result = (isNew ? "N:" : "C:") + Self.traceIdentity(of: value)
    }

    private func flushTrace() {
        let lines = trace
        trace.removeAll(keepingCapacity: true)
        for line in lines {
            let indent = String(repeating: "    ", count: line.depth)
            line.logger("\(indent)\(line.depth): \(line.key) = \(line.result)")
        }
    }

    /// The object's address for class instances (so shared instances are visible), else its description.
    private static func traceIdentity<T>(of value: T) -> String {
        let any: Any = value
        if type(of: any) is AnyClass {
            return String(UInt(bitPattern: ObjectIdentifier(any as AnyObject)))
        }
        return String(describing: value)
    }
}

/// The thread-local slot holding each thread's ``ResolutionContext``; the
/// destructor releases it when the thread exits.
@usableFromInline
let contextKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let result = pthread_key_create(&key) { raw in
        Unmanaged<ResolutionContext>.fromOpaque(raw).release()
    }
    #else
    let result = pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<ResolutionContext>.fromOpaque(raw).release()
    }
    #endif
    precondition(result == 0, "FactoryCore: pthread_key_create failed (\(result))")
    return key
}()
