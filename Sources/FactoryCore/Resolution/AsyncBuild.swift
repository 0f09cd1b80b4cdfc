#if SwiftConcurrency
/// One asynchronous build of a cached instance, and the tasks waiting for it.
///
/// The build runs in a task of its own, so that cancelling any waiting task (the
/// one that started the build included) cancels that task's wait and never the
/// build the others share. Waiters suspend on continuations; no thread blocks.
package final class AsyncBuild<T: Sendable>: SupersedableBuild, @unchecked Sendable {
    // Sendable because `storedClaim`, `result`, `waiters` and `cancelled` are only touched with `lock` held.

    private let lock = FactoryLock(owner: AsyncBuild<T>.self)
    private var result: Result<T, any Error>?
    /// A waiting task's continuation, and whether ``supersede()`` sends it back.
    private typealias Waiter = (continuation: UnsafeContinuation<Void, Never>, leaves: Bool)
    private var waiters: [Int: Waiter] = [:]
    private var cancelled: Set<Int> = []
    private var nextWaiter = 0
    /// The entry's generation moved on before the build ended (a `register`,
    /// reset or `pop()`): the tasks that joined it were sent back to decide
    /// again (``supersede()``).
    private var superseded = false

    /// Where the instance goes, and where the cache entry stood when the build
    /// started: a build whose entry was removed (or whose singleton era ended)
    /// meanwhile hands its value to the task that started it but does not store it.
    private let storedClaim: BuildClaim
    /// The chain the build's closure runs in: the starting resolution's, marked
    /// as this build's (``AsyncChain/build``).
    package let chain: AsyncChain
    /// This build in the wait graph.
    package let waiter: AsyncWaiter

    /// A build of `key` for the resolution `node`, whose closure runs in a chain
    /// marked as this build's.
    init(claim: BuildClaim, node: AsyncChain) {
        storedClaim = claim
        let waiter = AsyncWaiter()
        self.waiter = waiter
        chain = AsyncChain(
            key: node.key, containerID: node.containerID, parameter: node.parameter, parameterless: node.parameterless,
            parent: node.parent, watch: node.watch, build: waiter, trace: node.trace)
    }

    /// Where the instance goes (see ``storedClaim``); read by the build's task when it ends.
    var claim: BuildClaim {
        lock.withLock { storedClaim }
    }

    /// How a wait for the build ended.
    private enum Ending {
        case outcome(Result<T, any Error>)
        /// The entry's generation moved on before the build ended (``supersede()``).
        case superseded
        case cancelled
    }

    /// The build's outcome, for the task that started it: its value, or its
    /// error, or `CancellationError` if the task is cancelled before the build
    /// ends (the build goes on for the others). The entry's generation moving on
    /// does not end this wait, as the thread running a synchronous build gets
    /// the instance it built; then that task is the only one the outcome goes to,
    /// and the build keeps nothing of it: the instance lives as long as the task
    /// keeps it, and is released when it lets go, not later by the build's task.
    nonisolated(nonsending) package func value() async throws -> T {
        guard case .outcome(let outcome) = await wait(leavesIfSuperseded: false) else { throw CancellationError() }
        return try outcome.get()
    }

    /// The build's outcome, for a task that joined it, as ``value()``; `nil` when
    /// the entry's generation moved on before the build ended: the task decides again.
    nonisolated(nonsending) package func joinedValue() async throws -> T? {
        switch await wait(leavesIfSuperseded: true) {
        case .outcome(let outcome): return try outcome.get()
        case .superseded: return nil
        case .cancelled: throw CancellationError()
        }
    }

    nonisolated(nonsending) private func wait(leavesIfSuperseded leaves: Bool) async -> Ending {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let ready = lock.withLock {
                    if result != nil || (superseded && leaves) || cancelled.remove(id) != nil { return true }
                    waiters[id] = (continuation, leaves)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { () -> UnsafeContinuation<Void, Never>? in
                if let waiter = waiters.removeValue(forKey: id) { return waiter.continuation }
                if result == nil { cancelled.insert(id) }
                return nil
            }?.resume()
        }
        // The outcome is read under the lock rather than carried by the
        // continuation: the lock is what orders the build's writes (the
        // instance's stored properties) before this task's reads, and it is one
        // ThreadSanitizer sees, which a continuation resumed before its task
        // suspended is not (the runtime's fast path there has no annotation).
        // A joined task that was sent back never takes this build's outcome, even
        // when the build ended meanwhile (``finish(_:)`` follows a supersede), and
        // does not copy it: the starter, the one task a superseded build's outcome
        // goes to, takes it out (see ``value()``).
        let ending = lock.withLock { () -> Ending in
            if superseded && leaves { return .superseded }
            guard let outcome = result else { return .cancelled }
            if superseded { result = nil }
            return .outcome(outcome)
        }
        if case .superseded = ending, Task.isCancelled { return .cancelled }
        return ending
    }

    /// Sends every task that joined the build back to decide again, now and
    /// later: a `register`, reset or `pop()` came since the build started, and
    /// either a resolution of the new generation started its own build or this
    /// one ended. Does nothing once the build's outcome is delivered.
    package func supersede() {
        let resumed = lock.withLock { () -> [Int: Waiter] in
            guard result == nil else { return [:] }
            superseded = true
            let leaving = waiters.filter(\.value.leaves)
            waiters = waiters.filter { !$0.value.leaves }
            return leaving
        }
        for (_, waiter) in resumed { waiter.continuation.resume() }
    }

    /// Delivers the build's outcome to every waiter, now and later. Takes it, so
    /// that the caller holds nothing of it once a waiter has resumed.
    package func finish(_ outcome: consuming Result<T, any Error>) {
        var delivered: Result<T, any Error>? = consume outcome
        let resumed = lock.withLock {
            result = delivered
            delivered = nil
            cancelled.removeAll()
            defer { waiters = [:] }
            return waiters
        }
        for (_, waiter) in resumed { waiter.continuation.resume() }
    }
}

/// A build whose waiters can be sent back to decide again (``BuildGate/releaseWaiters()``).
package protocol SupersedableBuild: AnyObject {
    /// Sends every task that joined the build back to decide again.
    func supersede()
}

/// The chain of asynchronous resolutions a task is inside, innermost first: it
/// follows the task across suspension points (and into the tasks that run
/// builds), so a cycle through `await` is found like a synchronous one.
package final class AsyncChain: Sendable {
    package let key: FactoryKey
    /// The container instance, so the same factory of another instance is no cycle.
    package let containerID: ObjectIdentifier
    /// The parameter, when it is `Hashable` (other parameters never compare equal).
    package let parameter: (any AsyncParameter)?
    /// Whether the factory takes no parameter (then any re-entry is a cycle).
    package let parameterless: Bool
    package let parent: AsyncChain?
    /// What the captive-dependency check knows of this resolution, when it is
    /// watched: its container is, or an outer resolution is.
    package let watch: WatchedResolution?
    /// The build whose closure this resolution is, if it is one.
    package let build: AsyncWaiter?
    /// Where this resolution sits in its cycle's trace, when a container of the
    /// cycle traces (``ContainerManager/trace``).
    package let trace: AsyncTracePosition?

    package init(
        key: FactoryKey, containerID: ObjectIdentifier, parameter: (any AsyncParameter)?, parameterless: Bool,
        parent: AsyncChain?, watch: WatchedResolution? = nil, build: AsyncWaiter? = nil, trace: AsyncTracePosition? = nil
    ) {
        self.key = key
        self.containerID = containerID
        self.parameter = parameter
        self.parameterless = parameterless
        self.parent = parent
        self.watch = watch
        self.build = build
        self.trace = trace
    }

    /// The innermost build this resolution runs inside, if any.
    package var enclosingBuild: AsyncWaiter? {
        var node: AsyncChain? = self
        while let current = node {
            if let build = current.build { return build }
            node = current.parent
        }
        return nil
    }

    /// The chain of the running task.
    @TaskLocal package static var current: AsyncChain?

    /// Whether the chain already resolves this factory of this container with an equal parameter.
    package func contains(
        _ key: FactoryKey, containerID: ObjectIdentifier, parameter: (any AsyncParameter)?, parameterless: Bool
    ) -> Bool {
        let parameter = parameter?.hashable
        var node: AsyncChain? = self
        while let current = node {
            if current.containerID == containerID && current.key == key
                && (parameterless || (parameter != nil && current.parameter?.hashable == parameter))
            {
                return true
            }
            node = current.parent
        }
        return false
    }

    /// Whether this resolution runs inside `build`: the build's own resolution is
    /// one of its outer resolutions.
    package func isInside(_ build: AsyncBuild<some Sendable>) -> Bool {
        let started = build.chain
        var node = parent
        while let current = node {
            if current === started { return true }
            node = current.parent
        }
        return false
    }

    /// The keys from the outermost resolution to this one.
    package var keys: [FactoryKey] {
        var keys: [FactoryKey] = []
        var node: AsyncChain? = self
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// A parameter kept in an ``AsyncChain`` or handed to a build's task: `Sendable`
/// because the parameter type is, and compared through `AnyHashable`.
package protocol AsyncParameter: Sendable {
    /// The parameter as `AnyHashable`, or `nil` when its type is not `Hashable`
    /// or it is not equal to itself (NaN), so it can never be found again.
    var hashable: AnyHashable? { get }
}

package struct AsyncParameterValue<P: Sendable>: AsyncParameter {
    package let value: P
    package init(_ value: P) { self.value = value }
    /// As a synchronous factory's parameter becomes a cache key (``GeneralPath/hashable(_:)``).
    package var hashable: AnyHashable? {
        GeneralPath.hashable(value)
    }
}

/// What an async resolution throws, instead of stopping the program, while
/// FactoryTesting's graph validation resolves it (``AsyncValidation/isActive``).
package struct AsyncValidationFailure: Error, Sendable {
    package let error: FactoryError
    /// The chain that failed, outermost first, ending with the factory resolved again.
    package let chain: [FactoryKey]
}

/// Marks the tasks of a graph validation: a cycle found in an async resolution
/// throws ``AsyncValidationFailure`` to the validator instead of stopping the program.
package enum AsyncValidation {
    @TaskLocal package static var isActive = false
    /// Where the closures of a validation's async factories log what they throw;
    /// `nil` outside FactoryTesting's catalog validation.
    @TaskLocal package static var thrown: AsyncThrowLog?
}

/// What the closures of async factories threw during one validated resolution,
/// in the order thrown, each with the chain it was thrown in: the error itself
/// reaches the caller unchanged, so a factory that catches it behaves as in the app,
/// and FactoryTesting can still name the factory that threw first.
package final class AsyncThrowLog: Sendable {
    /// One closure that threw: the chain from the outermost resolution to it, and the error.
    package struct Entry: Sendable {
        package let chain: [FactoryKey]
        package let error: String
    }

    private let entries = LockedBox<[Entry]>([])

    package init() {}

    /// Every closure that threw, in the order thrown.
    package var all: [Entry] {
        entries.withLock { $0 }
    }

    /// Logs `error`, thrown by the closure of the innermost resolution of the running task.
    static func log(_ error: any Error) {
        guard let log = AsyncValidation.thrown else { return }
        let entry = Entry(chain: AsyncChain.current?.keys ?? [], error: String(describing: error))
        log.entries.withLock { $0.append(entry) }
    }
}

/// An asynchronous factory closure as it was written: without a parameter
/// (``AsyncFactory``) or with one, so that no wrapping closure is allocated.
@usableFromInline
package struct AsyncClosure<P, T>: Sendable {
    @usableFromInline let plain: (@Sendable () async throws -> T)?
    @usableFromInline let withParameter: (@Sendable (P) async throws -> T)?

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init(plain: @escaping @Sendable () async throws -> T) {
        self.plain = plain
        withParameter = nil
    }

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init(withParameter: @escaping @Sendable (P) async throws -> T) {
        plain = nil
        self.withParameter = withParameter
    }

    package func callAsFunction(_ parameter: P) async throws -> T {
        do {
            if let plain { return try await plain() }
            return try await withParameter!(parameter)
        } catch {
            AsyncThrowLog.log(error)
            throw error
        }
    }
}

/// A registered asynchronous closure, stored untyped in a container like ``RegistrationBox``.
package final class AsyncRegistrationBox<P, T>: RegistrationBoxBase, @unchecked Sendable {
    // Sendable: see RegistrationBoxBase.
    package let factory: AsyncClosure<P, T>

    package init(_ factory: AsyncClosure<P, T>) {
        self.factory = factory
        super.init(isolation: .none, describesType: false)
    }
}

/// One asynchronous build in the wait graph. Guarded by ``AsyncWaitGraph``'s lock.
package final class AsyncWaiter: @unchecked Sendable {
    // Sendable because every property is only touched with AsyncWaitGraph's lock held.

    /// The build this build's closure waits for, if it waits.
    fileprivate var waitingFor: AsyncWaiter?
    /// The waiting resolution's chain, outermost first, for the report.
    fileprivate var waitingChain: [FactoryKey] = []
    /// The build has its outcome: whoever waits for it is about to resume.
    fileprivate var finished = false

    package init() {}
}

/// Who waits for whom among asynchronous builds, to tell a deadlock from a wait.
///
/// Only a resolution that runs inside a build (the closure of a cached, shared or
/// singleton async factory) and joins another task's build is recorded: such a
/// wait blocks the first build until the second ends. If the second build waits
/// (directly or through others) for the first, neither can ever end; the program
/// stops with every chain in the loop (graph validation gets the error thrown).
/// The lock is taken only around such joins, never on a cache hit or a build.
package enum AsyncWaitGraph {
    private static let lock = FactoryLock(owner: AsyncWaitGraph.self)

    /// Records that `waiter`'s closure waits for `build`; reports a loop of
    /// unfinished builds that this wait closes.
    package static func beginWait(_ waiter: AsyncWaiter, for build: AsyncWaiter, chain: [FactoryKey]) throws {
        let report: String? = lock.withLock {
            waiter.waitingFor = build
            waiter.waitingChain = chain
            // A finished build's waiters are about to resume: a loop through it is no deadlock.
            let unfinished = { (waiter: AsyncWaiter?) in waiter?.finished == false ? waiter : nil }
            let loop = WaitLoop.find(from: waiter, through: unfinished(build), next: { unfinished($0.waitingFor) })
            return loop?.map { "task: " + $0.waitingChain.map(\.description).joined(separator: " > ") }
                .joined(separator: "; ")
        }
        guard let report else { return }
        endWait(waiter)
        let error = FactoryError.crossThreadCycle(report)
        if AsyncValidation.isActive { throw AsyncValidationFailure(error: error, chain: chain) }
        FactoryError.fail(error)
    }

    /// Records that `waiter` no longer waits.
    package static func endWait(_ waiter: AsyncWaiter) {
        lock.withLock {
            waiter.waitingFor = nil
            waiter.waitingChain = []
        }
    }

    /// Records that `build` has its outcome: a loop through it is no deadlock.
    package static func finish(_ build: AsyncWaiter) {
        lock.withLock { build.finished = true }
    }
}
#endif
