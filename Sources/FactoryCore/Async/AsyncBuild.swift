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
#endif
