#if SwiftConcurrency
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
