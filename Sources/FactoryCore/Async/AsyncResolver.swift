#if SwiftConcurrency
/// Resolves an async factory whose hit missed. Its registrations and run-time modifiers live in
/// the container beside the sync factories', so `reset`, `push`/`pop` and test traits treat both alike.
@usableFromInline
struct AsyncResolver<P: Sendable, T: Sendable>: Sendable {
    let registration: FactoryRegistration
    let factory: AsyncClosure<P, T>

    @usableFromInline
    init(_ registration: FactoryRegistration, _ factory: AsyncClosure<P, T>) {
        self.registration = registration
        self.factory = factory
    }

    var manager: ContainerManager { registration.manager }
    var key: FactoryKey { registration.key }
    var containerID: ObjectIdentifier { registration.containerID }

    /// ``ResolvedOptions`` with the closure cast back to this factory's types.
    struct Effective {
        var options: ResolvedOptions
        var factory: AsyncClosure<P, T>

        var box: RegistrationBoxBase? { options.box }
        var scope: Scope? { options.scope }
        var ttl: UInt64 { options.ttl }
        var scopeOnParameters: Bool { options.scopeOnParameters }
        var shutdown: ShutdownHandler? { options.shutdown }
    }

    func effective(_ merged: ResolvedOptions) -> Effective {
        // Every box of this key was made for `P` and `T`; checked anyway, as user code reaches it.
        guard let box = merged.closureBox as? RegistrationBox<AsyncParameterFactory<P, T>.Closure> else {
            return Effective(options: merged, factory: factory)
        }
        return Effective(options: merged, factory: AsyncClosure(withParameter: box.closure))
    }

    @usableFromInline
    nonisolated(nonsending) func resolve(_ parameter: P) async throws -> T {
        let manager = self.manager
        manager.ensureAutoRegistered()
        let key = self.key
        let flags = manager.flags.value
        if flags & ContainerManager.Flags.shutDown != 0 { throw ContainerShutDownError(key: key) }
        let resolved = effective(ResolvedOptions.now(registration, flags: flags))
        // Strict mode, as for synchronous factories.
        if flags & ContainerManager.Flags.strict != 0 && resolved.options.usesDefinition { manager.reportUnmocked(key) }
        let chain = AsyncChain.current
        // Watched before the cache is read: finding a cached instance captures it as surely as building it.
        let watch =
            flags & ContainerManager.Flags.observed != 0 || chain?.watch != nil
            ? WatchedResolution(key: key, scope: resolved.scope, ttl: resolved.ttl, flags: flags, depth: 0, manager: manager)
            : nil
        if let watch { AsyncChain.watch(watch, inside: chain) }

        let trace =
            flags & ContainerManager.Flags.trace != 0 ? AsyncTraceLine(key, in: chain, logger: manager.loggerBox) : nil

        if let hit = cacheHit(resolved) {
            trace?.end(hit, code: UInt8(ascii: "C"))
            decorate(hit, isNew: false, resolved, flags)
            return hit
        }
        let value: T
        let isNew: Bool
        do {
            let (found, cached) = try await resolveMissed(parameter, resolved, chain: chain, watch: watch, trace: trace)
            value = found
            isNew = !cached
            trace?.end(value, code: cached ? UInt8(ascii: "C") : resolved.options.code)
        } catch {
            trace?.end(throwing: error)
            throw error
        }
        decorate(value, isNew: isNew, resolved, flags)
        return value
    }

    private func cacheHit(_ resolved: Effective) -> T? {  // lock-free, allocation-free, as for synchronous factories
        guard !resolved.scopeOnParameters, let scope = resolved.scope else { return nil }
        return manager.cacheHit(key: key, scope: scope, ttl: resolved.ttl, box: resolved.box).map { $0.read(T.self) }
    }

    /// `cached` when found after all or joined.
    nonisolated(nonsending) private func resolveMissed(
        _ parameter: P, _ resolved: Effective, chain: AsyncChain?, watch: WatchedResolution?, trace: AsyncTraceLine?
    ) async throws -> (T, cached: Bool) {
        // Made once, unlocked: it runs the parameter's `hash(into:)` and `==`.
        let lookup = ParameterLookup(GeneralPath.hashable(parameter))
        let hashable: (any AsyncParameter)? = lookup == nil ? nil : AsyncParameterValue(parameter)
        let parameterless = P.self == Void.self
        // Always checked: a task that waits for its own build would wait forever.
        if let chain { try Self.checkCycle(key, in: chain, containerID: containerID, hashable, parameterless) }
        // Untraced inside a traced cycle, it still takes a level, as a synchronous frame does.
        let position = trace?.position ?? chain?.trace.map { AsyncTracePosition(cycle: $0.cycle, depth: $0.depth + 1) }
        let node = AsyncChain(
            key: key, containerID: containerID, parameter: hashable, parameterless: parameterless, parent: chain,
            watch: watch, trace: position)
        switch resolved.scope?.keeping ?? .nothing {
        case .nothing, .cycle:
            return (try await AsyncChain.$current.withValue(node) { try await resolved.factory(parameter) }, false)
        case .cells:
            // A custom scope's strategy is user code: asked before locking.
            let prepared = resolved.scope.map { $0.strategy.prepare($0, key: key, manager: manager) } ?? PreparedCells()
            return try await resolveCached(parameter, lookup, node: node, prepared: prepared)
        }
    }

    /// A resolution its own chain runs would wait for itself forever. Graph validation gets a throw.
    private static func checkCycle(
        _ key: FactoryKey, in chain: AsyncChain, containerID: ObjectIdentifier, _ hashable: (any AsyncParameter)?,
        _ parameterless: Bool
    ) throws {
        guard chain.contains(key, containerID: containerID, parameter: hashable, parameterless: parameterless) else {
            return
        }
        let keys = chain.keys + [key]
        let error = FactoryError.circularDependency(chain: keys.map(\.description).joined(separator: " > "))
        if AsyncValidation.isActive { throw AsyncValidationFailure(error: error, chain: keys) }
        FactoryError.fail(error)
    }

    /// Inside a build of its own, the wait is recorded in ``AsyncWaitGraph``, which reports two
    /// builds waiting for each other instead of suspending both forever.
    nonisolated(nonsending) private static func join(_ build: AsyncBuild<T>, from node: AsyncChain) async throws -> T? {
        guard let waiter = node.enclosingBuild else { return try await build.joinedValue() }
        try AsyncWaitGraph.beginWait(waiter, for: build.waiter, chain: node.keys)
        defer { AsyncWaitGraph.endWait(waiter) }
        return try await build.joinedValue()
    }

    private func decorate(_ value: T, isNew: Bool, _ resolved: Effective, _ flags: Int) {
        // A decorator applied at run time replaces the definition's, as for synchronous factories.
        if let box = resolved.options.decorator {
            withUnsafePointer(to: value) { box.decorate($0, isNew: isNew) }
        }
        if flags & ContainerManager.Flags.decorator != 0, let all = manager.publishedDecorator { all(value) }
    }

    /// A superseded build hands no value to its joiners, who decide again; its starter gets its outcome.
    nonisolated(nonsending) private func resolveCached(
        _ parameter: P, _ lookup: ParameterLookup?, node: AsyncChain, prepared: PreparedCells
    ) async throws -> (T, cached: Bool) {
        var lookup = lookup
        while true {
            switch decide(lookup, node: node, prepared: prepared) {
            case .cached(let found):
                return (found.read(T.self), true)
            case .uncached(let factory):
                return (try await AsyncChain.$current.withValue(node) { try await factory(parameter) }, false)
            case .shutDown:
                throw ContainerShutDownError(key: key)
            case .join(let build):
                manager.countBuildWaiter(1)
                defer { manager.countBuildWaiter(-1) }
                if let value = try await Self.join(build, from: node) { return (value, true) }
            case .build(let build, let factory):
                await start(build, factory, parameter)
                return (try await build.value(), false)
            case .compare(let candidates):
                if let found = lookup?.compare(candidates) { return (found.read(T.self), true) }
            }
        }
    }

    /// In a task of its own (inheriting task-locals), so no waiter's cancellation cancels it.
    nonisolated(nonsending) private func start(
        _ build: AsyncBuild<T>, _ factory: AsyncClosure<P, T>, _ parameter: P
    ) async {
        let manager = self.manager
        let key = self.key
        let run: @Sendable () async -> Void = {
            let outcome = await AsyncChain.$current.withValue(build.chain) {
                do { return Result<T, any Error>.success(try await factory(parameter)) } catch {
                    return .failure(error)
                }
            }
            // Handed over: once `publish` wakes the waiters, this task holds no instance.
            Self.publish(consume outcome, of: build, key: key, manager: manager)
        }
        if AsyncValidation.isActive {
            // Graph validation runs everything on its own thread: no task of its own here.
            await run()
        } else {
            Task { await run() }
        }
    }

    enum AsyncDecision {
        case cached(FoundInstance)
        /// The scope caches nothing, the parameter cannot be a key, or this runs inside the build it would join.
        case uncached(AsyncClosure<P, T>)
        case shutDown
        case join(AsyncBuild<T>)
        case build(AsyncBuild<T>, AsyncClosure<P, T>)
        case compare(ParameterCandidates)  // compare unlocked: a hit, or decide again
    }

    /// Chooses closure and cache again under the lock, with the decision to build: a `register` or reset that returned
    /// is always seen, and a build never runs a closure older than its generation. The sync factories' decision
    /// (``ContainerManager/decideAtCacheLocation(_:prepared:shutDown:resolve:place:uncached:decide:)``); only how a
    /// task joins is this kind's (``TaskJoining``).
    private func decide(_ lookup: ParameterLookup?, node: AsyncChain, prepared: PreparedCells) -> AsyncDecision {
        manager.decideAtCacheLocation(
            key, prepared: prepared, shutDown: .shutDown,
            resolve: { slot, defaultScope in
                effective(ResolvedOptions(registration, slot.persistedOptions, defaultScope: defaultScope))
            },
            place: { resolved in
                guard let scope = resolved.scope, !resolved.scopeOnParameters || lookup != nil else { return nil }
                return (scope, resolved.box)
            },
            uncached: { resolved in .uncached(resolved.factory) },
            decide: { location, scope, resolved, garbage, outdated in
                let parameter = resolved.scopeOnParameters ? lookup : nil
                let decision = location.decideBuild(
                    TaskJoining<T>(node: node), parameter, scopeID: ObjectIdentifier(scope), ttl: resolved.ttl,
                    shutdown: resolved.shutdown, &garbage, &outdated)
                switch decision {
                case .cached(let found): return .cached(found)
                // Inside its own build with another parameter (an equal one is a cycle, reported
                // before): joining would wait forever, so build uncached, as sync factories do.
                case .inside: return .uncached(resolved.factory)
                case .join(let build, _): return .join(build)
                case .build(let build, _): return .build(build, resolved.factory)
                case .compare(let candidates): return .compare(candidates)
                }
            })
    }

    /// Hands the outcome to the starter and, unless the generation moved on, to the joiners; keeps no copy of it.
    private static func publish(
        _ outcome: consuming Result<T, any Error>, of build: AsyncBuild<T>, key: FactoryKey, manager: ContainerManager
    ) {
        let claim = build.claim
        let current: Bool
        if case .success(let value) = copy outcome {
            current = withUnsafePointer(to: value) {
                claim.end(build, storing: UnsafeRawPointer($0), type: T.self, key: key, manager: manager).current
            }
        } else {
            current = claim.end(build, storing: nil, type: T.self, key: key, manager: manager).current
        }
        AsyncWaitGraph.finish(build.waiter)
        // Cut short by a `register`, reset or `pop()`: joiners share one new-generation build, as threads do.
        if !current { build.supersede() }
        build.finish(consume outcome)
    }
}

/// Tasks suspend on the ``AsyncBuild``, which runs in a task of its own.
struct TaskJoining<T: Sendable>: BuildJoining {
    let node: AsyncChain

    func build(_ running: AnyObject) -> AsyncBuild<T>? { running as? AsyncBuild<T> }

    func runsInside(_ build: AsyncBuild<T>) -> Bool { node.isInside(build) }

    func start(_ claim: BuildClaim) -> AsyncBuild<T> { AsyncBuild<T>(claim: claim, node: node) }

    func prepareToWait(at gate: inout BuildGate) {}
}

/// Marks an asynchronous factory's key: the parameter type ``FactoryKey`` holds
/// for an ``AsyncFactory`` (`P` is `Void`) or ``AsyncParameterFactory``.
public enum AsyncKind<P> {}
#endif
