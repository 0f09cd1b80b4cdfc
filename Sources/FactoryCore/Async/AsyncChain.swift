/// The async resolutions a task is inside, innermost first. It follows the task across suspension points and into
/// build tasks, so a cycle through `await` is found like a sync one, and the captive-dependency watch and the trace
/// reach what an async closure resolves.
package final class AsyncChain: Sendable {
    package let key: FactoryKey
    package let containerID: ObjectIdentifier  // the same factory of another instance is no cycle
    package let parameter: (any AsyncParameter)?  // only when `Hashable`: others never compare equal
    package let parameterless: Bool  // then any re-entry is a cycle
    package let parent: AsyncChain?
    package let watch: WatchedResolution?  // set when its container or an outer resolution is watched
    package let build: AsyncWaiter?  // the build whose closure this resolution is, if it is one
    package let trace: TracePosition?  // set when a container of the cycle traces
    let profile: Int?  // its build's event, while a FactoryProfile recording includes its container

    package init(
        key: FactoryKey, containerID: ObjectIdentifier, parameter: (any AsyncParameter)?, parameterless: Bool,
        parent: AsyncChain?, watch: WatchedResolution? = nil, build: AsyncWaiter? = nil, trace: TracePosition? = nil,
        profile: Int? = nil
    ) {
        self.key = key
        self.containerID = containerID
        self.parameter = parameter
        self.parameterless = parameterless
        self.parent = parent
        self.watch = watch
        self.build = build
        self.trace = trace
        self.profile = profile
    }

    #if SwiftConcurrency
    @TaskLocal package static var current: AsyncChain?
    #else
    package static var current: AsyncChain? { nil }
    #endif

    /// This resolution, then each outer one.
    private var lineage: UnfoldFirstSequence<AsyncChain> { sequence(first: self, next: \.parent) }

    package var enclosingBuild: AsyncWaiter? { lineage.lazy.compactMap(\.build).first }

    /// Same factory, same container, equal parameter.
    package func contains(
        _ key: FactoryKey, containerID: ObjectIdentifier, parameter: (any AsyncParameter)?, parameterless: Bool
    ) -> Bool {
        let parameter = parameter?.hashable
        return lineage.contains {
            $0.containerID == containerID && $0.key == key
                && (parameterless || (parameter != nil && $0.parameter?.hashable == parameter))
        }
    }

    #if SwiftConcurrency
    /// The build's own resolution is one of this one's outer resolutions.
    func isInside(_ build: AsyncBuild) -> Bool { parent?.lineage.contains { $0 === build.chain } ?? false }
    #endif

    package var keys: [FactoryKey] { lineage.map(\.key).reversed() }  // outermost first

    /// The nearest watched node keeping its instance; watching is inherited, so the walk stops at the first unwatched
    /// node.
    var watchedHolder: AsyncChain? {
        lineage.prefix { $0.watch != nil }.first { $0.watch?.lifetime != .transparent }
    }

    /// `between`: the sync resolutions from this chain's innermost one to `resolution`.
    func reportIfHolderCaptures(_ resolution: WatchedResolution, through between: [FactoryKey]) {
        guard let holderNode = watchedHolder, let holder = holderNode.watch, holder.captures(resolution) else { return }
        resolution.reportCaptured(by: holder, holderChain: holderNode.keys, chain: keys + between + [resolution.key])
    }
}

/// A parameter kept in an ``AsyncChain``, compared through `AnyHashable`.
package protocol AsyncParameter: Sendable {
    /// `nil` when not `Hashable` or not equal to itself (NaN): it could never be found again.
    var hashable: AnyHashable? { get }
}

package struct AsyncParameterValue<P: Sendable>: AsyncParameter {
    package let value: P
    package init(_ value: P) { self.value = value }
    package var hashable: AnyHashable? { ParameterLookup.hashable(value) }
}

/// An async build, as a waiter in ``AsyncWaitGraph``.
package final class AsyncWaiter: @unchecked Sendable {
    // Sendable: every property is only touched under AsyncWaitGraph's lock.

    fileprivate var waitingFor: AsyncWaiter?
    fileprivate var waitingChain: [FactoryKey] = []  // for the report, outermost first
    fileprivate var finished = false  // whoever waits for it is about to resume

    package init() {}
}

#if SwiftConcurrency
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

    private static func unfinished(_ waiter: AsyncWaiter?) -> AsyncWaiter? { waiter?.finished == false ? waiter : nil }

    package static func endWait(_ waiter: AsyncWaiter) {
        lock.withLock {
            waiter.waitingFor = nil
            waiter.waitingChain = []
        }
    }

    /// A loop through a finished build is no deadlock.
    package static func finish(_ build: AsyncWaiter) { lock.withLock { build.finished = true } }
}

/// Thrown instead of stopping the program while graph validation runs (``AsyncValidation/isActive``).
package struct AsyncValidationFailure: Error, Sendable {
    package let error: FactoryError
    /// Outermost first, ending with the factory resolved again.
    package let chain: [FactoryKey]
}

package enum AsyncValidation {
    @TaskLocal package static var isActive = false
    /// Told of each error an async closure throws, with the chain of the resolution that threw it: FactoryTesting's
    /// catalog validation names the factory that threw first, while the error reaches the caller unchanged.
    @TaskLocal package static var thrown: ThrowHook?

    /// A class, not the closure itself: a task-local of an optional function type crashed in release builds with
    /// Swift 6.3 (`swift_task_localValuePush` handed bad metadata; `FactoryCatalogTests`' async cases caught it).
    package final class ThrowHook: Sendable {
        let report: @Sendable (_ chain: [FactoryKey], _ error: any Error) -> Void
        package init(_ report: @escaping @Sendable (_ chain: [FactoryKey], _ error: any Error) -> Void) { self.report = report }
    }
}
#endif
