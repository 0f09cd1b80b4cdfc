#if SwiftConcurrency
package final class AsyncWaiter: @unchecked Sendable {
    // Sendable: every property is only touched under AsyncWaitGraph's lock.

    fileprivate var waitingFor: AsyncWaiter?
    fileprivate var waitingChain: [FactoryKey] = []  // for the report, outermost first
    fileprivate var finished = false  // whoever waits for it is about to resume

    package init() {}
}

/// Who waits for whom among async builds, to tell a deadlock from a wait. Only a build's closure joining another task's
/// build is recorded; a loop of such waits can never end, so the program stops naming every chain (graph validation
/// gets a throw). The process-wide lock is taken only around such joins, never on a cache hit or a build.
package enum AsyncWaitGraph {
    private static let lock = FactoryLock(owner: AsyncWaitGraph.self)

    /// Reports a loop of unfinished builds that this wait closes.
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

    package static func endWait(_ waiter: AsyncWaiter) {
        lock.withLock {
            waiter.waitingFor = nil
            waiter.waitingChain = []
        }
    }

    /// A loop through a finished build is no deadlock.
    package static func finish(_ build: AsyncWaiter) { lock.withLock { build.finished = true } }
}
#endif
