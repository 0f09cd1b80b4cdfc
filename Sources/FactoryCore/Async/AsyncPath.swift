#if SwiftConcurrency
import CFactoryAtomics

// The asynchronous kinds' resolution when the lock-free hit missed: the shared `Resolution` plus what is a task's own
// (the closure runs under the task's `AsyncChain`, a cached build in a task of its own, and a waiting task suspends on
// the `AsyncBuild`). Registrations and run-time modifiers live in the container beside the sync factories', so
// `reset`, `push`/`pop` and test traits treat both alike.

@usableFromInline
enum AsyncPath {
    @usableFromInline
    nonisolated(nonsending) static func resolve<P: Sendable, T: Sendable>(
        _ registration: FactoryRegistration, _ factory: AsyncClosure<P, T>, _ parameter: P
    ) async throws -> T {
        let chain = AsyncChain.current
        var resolution = Resolution.begin(registration, chain: .some(chain))
        if resolution.isShutDown { throw ContainerShutDownError(key: registration.key) }
        let found: (value: T, isNew: Bool)
        do {
            found = try await resolution.run(registration, factory, parameter, chain: chain)
        } catch {
            if let profile = resolution.profile { ProfileRecorder.end(profile, error: error) }
            resolution.end(throwing: error)
            throw error
        }
        if let profile = resolution.profile { ProfileRecorder.end(profile) }
        withUnsafePointer(to: found.value) { resolution.end(registration, $0, isNew: found.isNew, traced: true) }
        return found.value
    }
}

extension Resolution {
    /// The instance, and whether this resolution built it. A superseded build hands no value to its joiners, who
    /// decide again; its starter gets its outcome.
    nonisolated(nonsending) fileprivate mutating func run<P: Sendable, T: Sendable>(
        _ registration: FactoryRegistration, _ definition: AsyncClosure<P, T>, _ parameter: P, chain: AsyncChain?
    ) async throws -> (T, isNew: Bool) {
        let manager = registration.manager
        let key = registration.key
        if case .cells = options.scope?.keeping, !options.scopeOnParameters, let found = manager.hit(key, options, prepared: nil)
        {
            return (found.read(T.self), false)
        }
        if flags & ContainerManager.Flag.profile.rawValue != 0 || cfactory_profiling_everywhere() != 0 {
            profile = ProfileRecorder.begin(
                registration, options, async: true, parameterless: P.self == Void.self, parent: chain?.profileParent,
                built: false)
        }
        // Made once, unlocked: it runs the parameter's `hash(into:)` and `==`.
        var lookup = ParameterLookup(ParameterLookup.hashable(parameter))
        let node = try makeNode(registration, lookup == nil ? nil : AsyncParameterValue(parameter), P.self == Void.self, chain)
        var waited = false
        while true {
            switch cacheStep(registration, &lookup, waited: waited, joiner: .task(node)) {
            case .found(let found):
                return (found.read(T.self), false)
            case .start(let build):
                profile?.built = true
                await start(build, closure(definition), parameter)
                return (try await build.value().read(T.self), true)
            case .join(let build):
                let wait =
                    profile == nil ? nil : ProfileRecorder.beginWait(registration, byTask: true, parent: chain?.profileParent)
                manager.countBuildWaiter(1)
                defer {
                    if let wait { ProfileRecorder.end(wait) }
                    manager.countBuildWaiter(-1)
                }
                if let found = try await Self.join(build, from: node) { return (found.read(T.self), false) }
                waited = true
            case .shutDown:
                throw ContainerShutDownError(key: key)
            default:
                // Uncached, or inside its own build with another parameter (an equal one is a cycle, reported
                // before): joining would wait forever, so it builds uncached, as sync factories do.
                profile?.built = true
                return (try await AsyncChain.$current.withValue(node) { try await closure(definition)(parameter) }, true)
            }
        }
    }

    /// The chain node this resolution's closure runs under; a resolution its own chain runs would wait for itself
    /// forever, so a cycle is checked here, in every build (graph validation gets a throw).
    private func makeNode(
        _ registration: FactoryRegistration, _ parameter: (any AsyncParameter)?, _ parameterless: Bool,
        _ chain: AsyncChain?
    ) throws -> AsyncChain {
        let key = registration.key
        if let chain,
            chain.contains(key, containerID: registration.containerID, parameter: parameter, parameterless: parameterless)
        {
            let keys = chain.keys + [key]
            let error = FactoryError.circularDependency(chain: keys.map(\.description).joined(separator: " > "))
            if AsyncValidation.isActive { throw AsyncValidationFailure(error: error, chain: keys) }
            FactoryError.fail(error)
        }
        // Untraced inside a traced cycle, it still takes a level, as a synchronous frame does.
        let position =
            trace.map { TracePosition(cycle: $0.cycle, depth: $0.depth) }
            ?? chain?.trace.map { TracePosition(cycle: $0.cycle, depth: $0.depth + 1) }
        return AsyncChain(
            key: key, containerID: registration.containerID, parameter: parameter, parameterless: parameterless,
            parent: chain, watch: watched ? WatchedResolution(registration, options, flags: flags, depth: 0) : nil,
            trace: position, profile: profile?.index)
    }

    /// The closure chosen; every box of this key was made for `P` and `T`, checked all the same, as user code reaches it.
    private func closure<P: Sendable, T: Sendable>(_ definition: AsyncClosure<P, T>) -> AsyncClosure<P, T> {
        guard let box = options.closure as? RegistrationBox<AsyncParameterFactory<P, T>.Closure> else { return definition }
        return AsyncClosure(withParameter: box.closure)
    }

    /// In a task of its own (inheriting task-locals), so no waiter's cancellation cancels it.
    nonisolated(nonsending) private func start<P: Sendable, T: Sendable>(
        _ build: AsyncBuild, _ factory: AsyncClosure<P, T>, _ parameter: P
    ) async {
        let run: @Sendable () async -> Void = {
            let outcome: Result<CacheCell, any Error>
            do {
                let value = try await AsyncChain.$current.withValue(build.chain) { try await factory(parameter) }
                outcome = .success(withUnsafePointer(to: value) { build.end(storing: $0, type: T.self)! })
            } catch {
                build.end(storing: nil, type: T.self)
                outcome = .failure(error)
            }
            // Out of the scope of `value`: once the waiters wake, this task holds no instance.
            build.finish(consume outcome)
        }
        if AsyncValidation.isActive {
            // Graph validation runs everything on its own thread: no task of its own here.
            await run()
        } else {
            Task { await run() }
        }
    }

    /// Inside a build of its own, the wait is recorded in ``AsyncWaitGraph``, which reports two builds waiting for each
    /// other instead of suspending both forever.
    nonisolated(nonsending) private static func join(_ build: AsyncBuild, from node: AsyncChain) async throws -> FoundInstance? {
        guard let waiter = node.enclosingBuild else { return try await build.joinedValue() }
        try AsyncWaitGraph.beginWait(waiter, for: build.waiter, chain: node.keys)
        defer { AsyncWaitGraph.endWait(waiter) }
        return try await build.joinedValue()
    }
}

/// One async build of a cached instance and its waiting tasks. It runs in a task of its own, so cancelling any waiter
/// (its starter included) cancels only that wait. Waiters suspend on continuations; no thread blocks. Not generic: the
/// outcome is a cell holding the instance, which each waiter reads as its factory's type.
package final class AsyncBuild: @unchecked Sendable {
    // Sendable: `result`, `waiters`, `cancelled`, `superseded` and `current` are only touched under `lock`.

    private let lock = FactoryLock(owner: AsyncBuild.self)
    private var result: Result<CacheCell, any Error>?
    /// A waiting task's continuation, and whether ``supersede()`` sends it back.
    private typealias Waiter = (continuation: UnsafeContinuation<Void, Never>, leaves: Bool)
    private var waiters: [Int: Waiter] = [:]
    private var cancelled: Set<Int> = []
    private var nextWaiter = 0
    private var superseded = false
    private var current = true  // the claim's entry had not moved on when the build ended

    /// Where the instance goes and where the entry stood at the start: if the entry was removed (or the singleton era
    /// ended) meanwhile, the starter gets the value but it is not stored.
    let claim: BuildClaim
    /// The starting resolution's chain, marked as this build's (``AsyncChain/build``).
    package let chain: AsyncChain
    package let waiter = AsyncWaiter()

    init(claim: BuildClaim, node: AsyncChain) {
        self.claim = claim
        chain = AsyncChain(
            key: node.key, containerID: node.containerID, parameter: node.parameter, parameterless: node.parameterless,
            parent: node.parent, watch: node.watch, build: waiter, trace: node.trace, profile: node.profile)
    }

    private enum Ending {
        case outcome(Result<CacheCell, any Error>)
        case superseded
        case cancelled
    }

    /// For the starter: `CancellationError` if cancelled before the build ends (it goes on for the others). A
    /// generation change does not end this wait, as a sync builder gets what it built; the starter is then the one
    /// task the outcome goes to, and the build keeps nothing of it.
    nonisolated(nonsending) func value() async throws -> FoundInstance {
        guard case .outcome(let outcome) = await wait(leavesIfSuperseded: false) else { throw CancellationError() }
        return FoundInstance(cell: try outcome.get(), object: nil)
    }

    /// For a joiner, as ``value()``; `nil` when the generation moved on first: the task decides again.
    nonisolated(nonsending) func joinedValue() async throws -> FoundInstance? {
        switch await wait(leavesIfSuperseded: true) {
        case .outcome(let outcome): return FoundInstance(cell: try outcome.get(), object: nil)
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

    /// A `register`, reset or `pop()` came since the start: sends every joiner back to decide again, now and later.
    /// Does nothing once the outcome is delivered.
    func supersede() {
        let resumed = lock.withLock { () -> [Int: Waiter] in
            guard result == nil else { return [:] }
            superseded = true
            let leaving = waiters.filter(\.value.leaves)
            waiters = waiters.filter { !$0.value.leaves }
            return leaving
        }
        for (_, waiter) in resumed { waiter.continuation.resume() }
    }

    /// Ends the build's claim: caches the value at `value` (`nil`: the closure threw) unless the generation moved on,
    /// and returns the cell to hand to the waiters with ``finish(_:)``.
    @discardableResult
    func end(storing value: UnsafeRawPointer?, type: Any.Type) -> CacheCell? {
        let end = claim.end(self, storing: value, type: type)
        lock.withLock { current = end.current }
        guard let value else { return nil }
        // A weak cell would not keep the instance for the waiters.
        return end.stored.flatMap { $0.isWeak ? nil : $0 }
            ?? CacheCell.make(
                copying: value, type: type, weak: false, scopeID: claim.scopeID, createdAt: 0, epoch: 0, shutdown: nil)
    }

    /// Hands the outcome to every waiter, now and later; a failure reaches them all and nothing was cached. Cut short
    /// by a `register`, reset or `pop()`: joiners share one new-generation build, as threads do.
    func finish(_ outcome: consuming Result<CacheCell, any Error>) {
        AsyncWaitGraph.finish(waiter)
        if !lock.withLock({ current }) { supersede() }
        // Moved in under the lock: once a waiter resumed, this call holds no copy.
        var delivered: Result<CacheCell, any Error>? = consume outcome
        let resumed = lock.withLock {
            result = delivered.take()
            cancelled.removeAll()
            defer { waiters = [:] }
            return waiters
        }
        for (_, waiter) in resumed { waiter.continuation.resume() }
    }
}

#endif
