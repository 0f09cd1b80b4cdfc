#if SwiftConcurrency
/// One async build of a cached instance and its waiting tasks. It runs in a task of its own, so cancelling any waiter
/// (its starter included) cancels only that wait. Waiters suspend on continuations; no thread blocks.
package final class AsyncBuild<T: Sendable>: SupersedableBuild, @unchecked Sendable {
    // Sendable: `storedClaim`, `result`, `waiters`, `cancelled` and the rest are only touched under `lock`.

    private let lock = FactoryLock(owner: AsyncBuild<T>.self)
    private var result: Result<T, any Error>?
    /// A waiting task's continuation, and whether ``supersede()`` sends it back.
    private typealias Waiter = (continuation: UnsafeContinuation<Void, Never>, leaves: Bool)
    private var waiters: [Int: Waiter] = [:]
    private var cancelled: Set<Int> = []
    private var nextWaiter = 0
    /// See ``supersede()``.
    private var superseded = false

    /// Where the instance goes and where the entry stood at the start: if the entry was removed
    /// (or the singleton era ended) meanwhile, the starter gets the value but it is not stored.
    private let storedClaim: BuildClaim
    /// The starting resolution's chain, marked as this build's (``AsyncChain/build``).
    package let chain: AsyncChain
    package let waiter: AsyncWaiter

    init(claim: BuildClaim, node: AsyncChain) {
        storedClaim = claim
        let waiter = AsyncWaiter()
        self.waiter = waiter
        chain = AsyncChain(
            key: node.key, containerID: node.containerID, parameter: node.parameter, parameterless: node.parameterless,
            parent: node.parent, watch: node.watch, build: waiter, trace: node.trace)
    }

    var claim: BuildClaim {
        lock.withLock { storedClaim }
    }

    private enum Ending {
        case outcome(Result<T, any Error>)
        case superseded
        case cancelled
    }

    /// For the starter: `CancellationError` if cancelled before the build ends (it goes on for the
    /// others). A generation change does not end this wait, as a sync builder gets what it built; the starter
    /// is then the one task the outcome goes to, and the build keeps nothing of it.
    nonisolated(nonsending) package func value() async throws -> T {
        guard case .outcome(let outcome) = await wait(leavesIfSuperseded: false) else { throw CancellationError() }
        return try outcome.get()
    }

    /// For a joiner, as ``value()``; `nil` when the generation moved on first: the task decides again.
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
        // Read under the lock, not carried by the continuation: the lock orders the build's writes before this task's
        // reads, visibly to ThreadSanitizer, unlike a continuation resumed before its task suspended. A joiner sent
        // back never takes or copies this outcome, even if the build ended meanwhile (``finish(_:)`` follows a
        // supersede); the starter of a superseded build takes it out (see ``value()``).
        let ending = lock.withLock { () -> Ending in
            if superseded && leaves { return .superseded }
            guard let outcome = result else { return .cancelled }
            if superseded { result = nil }
            return .outcome(outcome)
        }
        if case .superseded = ending, Task.isCancelled { return .cancelled }
        return ending
    }

    /// A `register`, reset or `pop()` came since the start: sends every joiner back to decide again,
    /// now and later. Does nothing once the outcome is delivered.
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

    /// To every waiter, now and later; takes the outcome, so the caller keeps nothing of it once a waiter resumed.
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
    func supersede()
}
#endif
