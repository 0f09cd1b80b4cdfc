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
package final class ResolutionContext {
    /// How many resolutions are in progress on this thread; 0 between cycles.
    package var depth = 0
    /// The factories being resolved, outermost first, for cycle detection.
    package var chain: ContiguousArray<FactoryKey> = []
    /// Instances kept by the graph scope until the cycle ends.
    package var graph: [ScopeStorage.SlotKey: AnyObject] = [:]
    /// Trace lines of this cycle, written out when it ends.
    package var trace: [TraceLine] = []
    /// Containers whose `autoRegister()` is running on this thread.
    package var autoRegistering: [ObjectIdentifier] = []

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
    @inline(__always)
    package static var current: ResolutionContext {
        if let raw = pthread_getspecific(contextKey) {
            return Unmanaged<ResolutionContext>.fromOpaque(raw).takeUnretainedValue()
        }
        let context = ResolutionContext()
        pthread_setspecific(contextKey, Unmanaged.passRetained(context).toOpaque())
        return context
    }

    /// Enters a resolution of `key`; stops the program if `key` is already being
    /// resolved on this thread and cycle checking is on.
    @inline(__always)
    package func enter(_ key: FactoryKey, checkCycles: Bool) {
        if checkCycles {
            for existing in chain where existing == key {
                FactoryError.fail(.circularDependency(chain: chainDescription(appending: key)))
            }
        }
        chain.append(key)
        depth += 1
    }

    /// Leaves the current resolution; at the end of a cycle clears the graph cache and writes the trace.
    @inline(__always)
    package func leave() {
        chain.removeLast()
        depth -= 1
        if depth == 0 {
            if !graph.isEmpty { graph.removeAll(keepingCapacity: true) }
            if !trace.isEmpty { flushTrace() }
        }
    }

    /// `A<X> > B<Y> > A<X>`: the chain on this thread followed by `key`.
    package func chainDescription(appending key: FactoryKey) -> String {
        (chain.map(\.description) + [key.description]).joined(separator: " > ")
    }

    /// Reserves the trace line for the resolution being entered and returns its index.
    package func beginTrace(_ key: FactoryKey, logger: @escaping @Sendable (String) -> Void) -> Int {
        trace.append(TraceLine(depth: depth - 1, key: key, result: "", logger: logger))
        return trace.count - 1
    }

    /// Fills in the result of trace line `index`.
    package func endTrace<T>(_ index: Int, value: T, isNew: Bool) {
        trace[index].result = (isNew ? "N:" : "C:") + Self.traceIdentity(of: value)
    }

    private func flushTrace() {
        let lines = trace
        trace.removeAll(keepingCapacity: true)
        for line in lines {
            line.logger("\(line.depth): \(line.key) = \(line.result)")
        }
    }

    /// The object's address for class instances (so shared instances are visible), else its description.
    private static func traceIdentity<T>(of value: T) -> String {
        let any: Any = value
        if type(of: any) is AnyClass {
            return String(UInt(bitPattern: ObjectIdentifier(any as AnyObject).hashValue))
        }
        return String(describing: value)
    }
}

/// The thread-local slot holding each thread's ``ResolutionContext``; the
/// destructor releases it when the thread exits.
private let contextKey: pthread_key_t = {
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
