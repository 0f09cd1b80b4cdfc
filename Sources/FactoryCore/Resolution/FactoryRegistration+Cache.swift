extension GeneralPath {
    /// Looks in the cache (cached, shared, custom or singleton scope): a lock-free
    /// hit, written to `found`, if there is one; else claims the build, which then
    /// runs once per cache generation however many threads ask at once.
    ///
    /// The closure is chosen again under the container's lock, together with the
    /// decision to build, so a `register` or reset that returned before that
    /// point is always seen; a build that started before one is handed back to its
    /// caller but never stored (the generation moved on). Threads that find a
    /// build under way wait for it with no lock held; a thread that would wait
    /// for its own build, or for a thread that waits for it, is a cycle.
    ///
    /// Returns `false` for a build: with `pending.claim` set when its instance is
    /// to be cached, without it when it is not (a parameter that cannot be a key,
    /// a scope that stopped caching, a recursion into this entry's own build).
    static func findCached<P, T>(
        _ registration: FactoryRegistration<P, T>, _ parameter: P, _ resolved: inout ResolvedOptions,
        _ pending: inout PendingBuild, found: UnsafeMutablePointer<T>, in context: ResolutionContext
    ) -> Bool {
        let manager = registration.manager
        let key = registration.key
        let traceIndex = pending.traceIndex
        if let value = hit(T.self, manager: manager, key: key, resolved: resolved) {
            found.initialize(to: value)
            if traceIndex >= 0 { context.endTrace(traceIndex, value: value, code: UInt8(ascii: "C")) }
            return true
        }
        var lookup: ParameterLookup?
        if resolved.scopeOnParameters {
            guard let parameterLookup = ParameterLookup(parameter) else { return false }
            lookup = parameterLookup
        }
        while true {
            switch decide(registration, lookup, resolved: &resolved, context: context, found: found) {
            case .cached:
                if traceIndex >= 0 { context.endTrace(traceIndex, value: found.pointee, code: UInt8(ascii: "C")) }
                return true
            case .uncached:
                return false
            case .shutDown:
                FactoryError.fail(.resolvedAfterShutdown(key))
            case .reentered:
                // Back on this thread while it builds this very cache entry: the same
                // factory with an equal parameter is a cycle, reported even with cycle
                // checking off (waiting would never end); a recursion with another
                // parameter into a cache that ignores parameters builds without caching.
                if isReentry(registration, parameter, in: context) {
                    context.failCycle(frame(registration, pointer: nil))
                }
                return false
            case .wait(let builder, let waitPoint):
                WaitGraph.wait(context, for: builder, key: key, at: waitPoint)
            case .compare(let candidates):
                if let value = lookup?.compare(candidates, T.self) {
                    found.initialize(to: value)
                    if traceIndex >= 0 { context.endTrace(traceIndex, value: value, code: UInt8(ascii: "C")) }
                    return true
                }
            case .build(let claim):
                context.beginOwnedBuild(claim.ownedBuild(lock: manager.lock))
                pending.claim = claim
                return false
            }
        }
    }

    /// What a resolution that missed does next, decided under the container's
    /// lock. Not generic: a cached instance is written where the resolution
    /// keeps it, so no type's metadata is made for this.
    enum CacheDecision {
        /// A valid instance was cached after all; it is written to `found`.
        case cached
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
    /// (``ContainerManager/decideAtCacheLocation(_:fetched:shutDown:resolve:place:uncached:decide:)``,
    /// ``CacheLocation/decideBuild(_:_:scopeID:ttl:shutdown:found:_:_:)``); only
    /// how a thread joins a build is this kind's (``ThreadJoining``).
    @inline(never)
    private static func decide<P, T>(
        _ registration: FactoryRegistration<P, T>, _ parameter: ParameterLookup?, resolved: inout ResolvedOptions,
        context: ResolutionContext, found: UnsafeMutablePointer<T>
    ) -> CacheDecision {
        let manager = registration.manager
        let key = registration.key
        // The strategy of a custom scope is user code: asked before locking.
        let fetched = FetchedScopeCache(scope: resolved.scope, key: key, manager: manager)
        return manager.decideAtCacheLocation(
            key, fetched: fetched, shutDown: .shutDown,
            resolve: { slot, defaultScope in
                // Also the caller's: the decorators and closure it uses come from here.
                resolved = effective(registration, slot.persistedOptions, defaultScope: defaultScope)
                return resolved
            },
            place: { resolved in resolved.scope.map { ($0, resolved.box) } },
            uncached: { _ in .uncached },
            decide: { location, scope, resolved, garbage, outdated in
                let decision = location.decideBuild(
                    ThreadJoining(context: context), parameter, scopeID: ObjectIdentifier(scope), ttl: resolved.ttl,
                    shutdown: resolved.shutdown, found: found, &garbage, &outdated)
                switch decision {
                case .cached: return .cached
                case .inside: return .reentered
                // `ThreadJoining.prepareToWait` made the point.
                case .join(let builder, let waitPoint): return .wait(builder, waitPoint!)
                case .build(_, let claim): return .build(claim)
                case .compare(let candidates): return .compare(candidates)
                }
            })
    }

    /// Whether this factory of this container is being built on `context`'s
    /// thread with a parameter equal to `parameter` (always, for a `Factory`).
    private static func isReentry<P, T>(
        _ registration: FactoryRegistration<P, T>, _ parameter: P, in context: ResolutionContext
    ) -> Bool {
        if P.self == Void.self { return true }
        return withUnsafePointer(to: parameter) { pointer in
            let frame = frame(registration, pointer: UnsafeRawPointer(pointer))
            return (0..<context.depth).contains { index in
                let other = context.frames[index]
                return other.container == frame.container && ObjectIdentifier(other.valueType) == ObjectIdentifier(T.self)
                    && ObjectIdentifier(other.parameterType) == ObjectIdentifier(P.self)
                    && FactoryName.equal(other.name, frame.name)
                    && ResolutionContext.sameParameter(other.parameter, frame.parameter, P.self)
            }
        }
    }

    /// The lock-free hit for where `resolved` keeps its instance, when there is one.
    private static func hit<T>(_ type: T.Type, manager: ContainerManager, key: FactoryKey, resolved: ResolvedOptions) -> T? {
        guard !resolved.scopeOnParameters, let scope = resolved.scope else { return nil }
        return manager.cacheHit(T.self, key: key, scope: scope, ttl: resolved.ttl, box: resolved.box)
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
    /// The build as the thread's context records it, so that it can be given up.
    func ownedBuild(lock: FactoryLock) -> ResolutionContext.OwnedBuild {
        ResolutionContext.OwnedBuild(
            cells: location.cells, parameter: parameterKey, lock: lock,
            extraLock: location.storageLocked ? location.storage?.lock : nil)
    }

    /// Ends the build `context` ran (see ``end(_:storing:of:key:manager:)``) and wakes
    /// the threads that waited for it.
    func publish<T>(_ value: T, by context: ResolutionContext, key: FactoryKey, manager: ContainerManager) {
        end(context, storing: value, of: T.self, key: key, manager: manager).cleared?.waitPoint?.open()
    }
}
