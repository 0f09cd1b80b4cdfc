extension GeneralPath {
    /// Looks in the cache (cached, shared, custom or singleton scope): a lock-free
    /// hit, if there is one; else claims the build, which then runs once per cache
    /// generation however many threads ask at once.
    ///
    /// The closure is chosen again under the container's lock, together with the
    /// decision to build, so a `register` or reset that returned before that
    /// point is always seen; a build that started before one is handed back to its
    /// caller but never stored (the generation moved on). Threads that find a
    /// build under way wait for it with no lock held; a thread that would wait
    /// for its own build, or for a thread that waits for it, is a cycle.
    ///
    /// Returns `nil` for a build: with `pending.claimed` set when its instance is
    /// to be cached, without it when it is not (a parameter that cannot be a key,
    /// a scope that stopped caching, a recursion into this entry's own build).
    static func findCached(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, _ resolved: inout ResolvedOptions,
        _ pending: inout PendingBuild, in context: ResolutionContext
    ) -> FoundInstance? {
        let manager = registration.manager
        let key = registration.key
        if !resolved.scopeOnParameters, let scope = resolved.scope,
            let found = manager.cacheHit(key: key, scope: scope, ttl: resolved.ttl, box: resolved.box)
        {
            return found
        }
        var lookup: ParameterLookup?
        if resolved.scopeOnParameters {
            guard let parameterLookup = ParameterLookup(hashable(at: address, registration.parameterType)) else {
                return nil
            }
            lookup = parameterLookup
        }
        while true {
            switch decide(registration, lookup, resolved: &resolved, context: context) {
            case .cached(let found):
                return found
            case .uncached:
                return nil
            case .shutDown:
                FactoryError.fail(.resolvedAfterShutdown(key))
            case .reentered:
                // Back on this thread while it builds this very cache entry: the same
                // factory with an equal parameter is a cycle, reported even with cycle
                // checking off (waiting would never end); a recursion with another
                // parameter into a cache that ignores parameters builds without caching.
                if isReentry(registration, at: address, in: context) {
                    context.failCycle(frame(registration, pointer: nil))
                }
                return nil
            case .wait(let builder, let waitPoint):
                manager.waitForBuild(context, of: builder, key: key, at: waitPoint)
            case .compare(let candidates):
                if let found = lookup?.compare(candidates) { return found }
            case .build(let claim):
                context.beginOwnedBuild(claim, lock: manager.lock)
                pending.claimed = true
                return nil
            }
        }
    }

    /// What a resolution that missed does next, decided under the container's lock.
    enum CacheDecision {
        /// A valid instance was cached after all.
        case cached(FoundInstance)
        /// The scope caches nothing (it changed since the resolution started).
        case uncached
        /// The container was shut down since the resolution started.
        case shutDown
        /// This thread is building this very entry already.
        case reentered
        /// Another thread builds it: wait at the point, then decide again.
        case wait(ResolutionContext, WaitPoint)
        /// This thread builds it.
        case build(BuildClaim)
        /// Compare the parameter with these keys, unlocked: a hit, or decide again.
        case compare(ParameterCandidates)
    }

    /// Chooses the closure and the cache again under the lock, with the decision
    /// to build, so a `register` or reset that returned before it is always seen.
    /// The decision is the asynchronous factories' one
    /// (``ContainerManager/decideAtCacheLocation(_:prepared:shutDown:resolve:place:uncached:decide:)``,
    /// ``CacheLocation/decideBuild(_:_:scopeID:ttl:shutdown:_:_:)``); only
    /// how a thread joins a build is this kind's (``ThreadJoining``).
    @inline(never)
    private static func decide(
        _ registration: FactoryRegistration, _ parameter: ParameterLookup?, resolved: inout ResolvedOptions,
        context: ResolutionContext
    ) -> CacheDecision {
        let manager = registration.manager
        let key = registration.key
        // A custom scope's strategy is user code: asked before locking.
        let prepared = resolved.scope.map { $0.strategy.prepare($0, key: key, manager: manager) } ?? PreparedCells()
        return manager.decideAtCacheLocation(
            key, prepared: prepared, shutDown: .shutDown,
            resolve: { slot, defaultScope in
                // Also the caller's: the decorators and closure it uses come from here.
                resolved = ResolvedOptions(registration, slot.persistedOptions, defaultScope: defaultScope)
                return resolved
            },
            place: { resolved in resolved.scope.map { ($0, resolved.box) } },
            uncached: { _ in .uncached },
            decide: { location, scope, resolved, garbage, outdated in
                let decision = location.decideBuild(
                    ThreadJoining(context: context), parameter, scopeID: ObjectIdentifier(scope), ttl: resolved.ttl,
                    shutdown: resolved.shutdown, &garbage, &outdated)
                switch decision {
                case .cached(let found): return .cached(found)
                case .inside: return .reentered
                // `ThreadJoining.prepareToWait` made the point.
                case .join(let builder, let waitPoint): return .wait(builder, waitPoint!)
                case .build(_, let claim): return .build(claim)
                case .compare(let candidates): return .compare(candidates)
                }
            })
    }

    /// Whether this factory of this container is being built on `context`'s
    /// thread with a parameter equal to the one at `address` (always, for a `Factory`).
    private static func isReentry(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, in context: ResolutionContext
    ) -> Bool {
        guard address != nil else { return true }
        let frame = frame(registration, pointer: address)
        return (0..<context.depth).contains { index in
            context.frames[index].isSameBuild(as: frame)
        }
    }
}

/// How threads join a build: a thread waits at the gate's ``WaitPoint``, and the
/// build is the building thread's context.
struct ThreadJoining: BuildJoining {
    let context: ResolutionContext

    func build(_ running: AnyObject) -> ResolutionContext? {
        running as? ResolutionContext
    }

    func runsInside(_ build: ResolutionContext) -> Bool {
        build === context
    }

    func start(_ claim: BuildClaim) -> ResolutionContext {
        context
    }

    func prepareToWait(at gate: inout BuildGate) {
        if gate.waitPoint == nil { gate.waitPoint = WaitPoint() }
    }
}

extension BuildClaim {
    /// Ends the build `context` ran, storing the instance at `value` (see
    /// ``end(_:storing:type:key:manager:)``), and wakes the threads that waited for it.
    func publish(
        _ value: UnsafeRawPointer, type: Any.Type, by context: ResolutionContext, key: FactoryKey, manager: ContainerManager
    ) {
        end(context, storing: value, type: type, key: key, manager: manager).cleared?.waitPoint?.open()
    }
}
