extension GeneralPath {
    /// A lock-free hit, else claims the build, run once per generation however many threads ask. The closure is chosen
    /// again under the lock with the decision, so a returned `register` or reset is always seen; an earlier build
    /// reaches its caller but is never stored. Waiters wait unlocked; waiting for one's own build, or a thread waiting
    /// for it, is a cycle. Returns `nil` for a build, with `pending.claimed` set when its instance is to be cached.
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
                // This thread builds this entry: an equal parameter is a cycle, reported even with
                // checking off (waiting would never end); another parameter builds uncached.
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

    enum CacheDecision {
        case cached(FoundInstance)
        case uncached  // the scope changed and caches nothing
        case shutDown
        case reentered  // this thread is building this very entry already
        case wait(ResolutionContext, WaitPoint)
        case build(BuildClaim)
        case compare(ParameterCandidates)  // compare unlocked: a hit, or decide again
    }

    /// The async factories' decision
    /// (``ContainerManager/decideAtCacheLocation(_:prepared:shutDown:resolve:place:uncached:decide:)``);
    /// only how a thread joins is this kind's (``ThreadJoining``).
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

    /// Built on this thread with an equal parameter (always, for a `Factory`).
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

/// A thread waits at the gate's ``WaitPoint``; the build is the building thread's context.
struct ThreadJoining: BuildJoining {
    let context: ResolutionContext

    func build(_ running: AnyObject) -> ResolutionContext? { running as? ResolutionContext }

    func runsInside(_ build: ResolutionContext) -> Bool { build === context }

    func start(_ claim: BuildClaim) -> ResolutionContext { context }

    func prepareToWait(at gate: inout BuildGate) {
        if gate.waitPoint == nil { gate.waitPoint = WaitPoint() }
    }
}

extension BuildClaim {
    /// ``end(_:storing:type:key:manager:)``, then wakes the waiting threads.
    func publish(
        _ value: UnsafeRawPointer, type: Any.Type, by context: ResolutionContext, key: FactoryKey, manager: ContainerManager
    ) {
        end(context, storing: value, type: type, key: key, manager: manager).cleared?.waitPoint?.open()
    }
}
