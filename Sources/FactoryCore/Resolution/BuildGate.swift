// One build of a cached instance at a time, sync and async alike: the decision at a `BuildGate`
// (join, replace an outdated build, start one) and how a build ends are written once here; a
// kind only says how a waiter waits (`BuildJoining`): a thread at the `WaitPoint`, a task on the `AsyncBuild`.

/// The cells' generation (bumped by `register`, resets and `pop()`) and the location's
/// ``CacheLocation/epoch``: a build whose stamp is no longer the entry's is neither joined nor stored.
package struct BuildStamp: Equatable, Sendable {
    package var generation: Int
    package var epoch: Int
}

package struct BuildGate {
    /// The building thread's `ResolutionContext`, or the `AsyncBuild`; `nil` when none runs.
    package var build: AnyObject?
    package var scopeID: ObjectIdentifier?  // so that resetting that scope can outdate it
    package var stamp = BuildStamp(generation: 0, epoch: 0)
    package var waitPoint: WaitPoint?

    package init() {}

    init(build: AnyObject, scopeID: ObjectIdentifier, stamp: BuildStamp) {
        self.build = build
        self.scopeID = scopeID
        self.stamp = stamp
    }

    /// Sends waiters back to decide again: a newer build replaced it, or it was given up. No lock held.
    func releaseWaiters() {
        waitPoint?.open()
        #if SwiftConcurrency
        (build as? any SupersedableBuild)?.supersede()
        #endif
    }
}

/// How one kind joins another resolution's build: the only part of the decision that differs
/// between sync and async factories.
protocol BuildJoining {
    associatedtype Build: AnyObject
    /// `nil` for another kind's build, then treated as outdated. Keys keep kinds apart and a custom
    /// cache belongs to one factory, so this checked cast always succeeds.
    func build(_ running: AnyObject) -> Build?
    /// Joining a build this resolution runs inside would wait forever.
    func runsInside(_ build: Build) -> Bool
    func start(_ claim: BuildClaim) -> Build
    func prepareToWait(at gate: inout BuildGate)  // locks held
}

/// Decided with the location's locks held (``CacheLocation/decideBuild(_:_:scopeID:ttl:shutdown:_:_:)``).
enum GateDecision<Build> {
    case cached(FoundInstance)
    /// Inside the build under way: build uncached (or report the cycle, for an equal parameter).
    case inside
    /// Wait (at the point, for a thread), then decide again.
    case join(Build, WaitPoint?)
    case build(Build, BuildClaim)
    /// Compare unlocked (``ParameterLookup/compare(_:)``): a hit if they carry the instance, else decide again.
    case compare(ParameterCandidates)
}

extension ContainerManager {
    /// Resolutions (threads and tasks) now waiting for another's build. Tests wait for this count
    /// instead of sleeping; a parked graph-validation thread stays counted.
    package var buildWaiters: Int { lock.withLock { state.buildWaiters } }

    /// Only on the waiting path, which blocks anyway.
    @inline(never)
    func countBuildWaiter(_ delta: Int) { lock.withLock { state.buildWaiters += delta } }

    /// Out of line: the waiter blocks anyway, and the deciding path stays small.
    @inline(never)
    func waitForBuild(_ waiter: ResolutionContext, of builder: ResolutionContext, key: FactoryKey, at point: WaitPoint) {
        countBuildWaiter(1)
        WaitGraph.wait(waiter, for: builder, key: key, at: point)
        countBuildWaiter(-1)
    }

    /// Every cache decision, both kinds. Under the lock, `resolve` chooses closure and options again; `place` names the
    /// caching scope and box (`nil`: `uncached`); the strategy places the instance and `decide` runs with the
    /// location's locks held. What it drops, and an outdated build's waiters, are released after unlocking.
    func decideAtCacheLocation<Resolved, Result>(
        _ key: FactoryKey, prepared: PreparedCells, shutDown: Result,
        resolve: (Slot, _ defaultScope: Scope?) -> Resolved,
        place: (Resolved) -> (Scope, RegistrationBoxBase?)?,
        uncached: (Resolved) -> Result,
        decide: (CacheLocation, Scope, Resolved, inout Garbage, inout BuildGate?) -> Result
    ) -> Result {
        var garbage = Garbage()
        var outdated: BuildGate?
        defer {
            outdated?.releaseWaiters()
            garbage.release()
        }
        return lock.withLock {
            if state.isShutDown { return shutDown }
            let slot = slot(key)
            let resolved = resolve(slot, state.defaultScope)
            guard let (scope, box) = place(resolved) else { return uncached(resolved) }
            return scope.strategy.withLocation(
                scope: scope, box: box, slot: slot, key: key, manager: self, prepared: prepared
            ) {
                guard let location = $0 else { return uncached(resolved) }
                return location.withExtraLock { decide(location, scope, resolved, &garbage, &outdated) }
            }
        }
    }
}

extension CacheLocation {
    /// Locks held. An outdated build (a `register`, reset or `pop()` returned since it started) is
    /// not joined: this resolution starts a current one, and the old gate goes to `outdated` to
    /// release its waiters after unlocking. A parameter whose key is unsettled gets `compare`.
    func decideBuild<Kind: BuildJoining>(
        _ kind: Kind, _ parameter: ParameterLookup?, scopeID: ObjectIdentifier, ttl: UInt64,
        shutdown: ShutdownHandler?, _ garbage: inout Garbage, _ outdated: inout BuildGate?
    ) -> GateDecision<Kind.Build> {
        linkHit(&garbage)
        var parameterKey: ParameterKey?
        if let parameter {
            guard let key = parameter.key(in: cells) else {
                let keys = cells.parameterKeys(hash: parameter.hash)
                // The common case, one key of this hash: its instance comes along.
                let cell = keys.count == 1 ? validParameterCell(keys[0], scopeID: scopeID, ttl: ttl) : nil
                return .compare(ParameterCandidates(keys: keys, cell: cell))
            }
            parameterKey = key
        }
        if let found = cachedInstance(parameterKey, scopeID: scopeID, ttl: ttl, &garbage) {
            return .cached(found)
        }
        let stamp = self.stamp
        var gate = parameterKey.map { cells.parameterGates[$0] ?? BuildGate() } ?? cells.gate
        if let running = gate.build {
            if gate.stamp == stamp, let build = kind.build(running) {
                if kind.runsInside(build) { return .inside }
                kind.prepareToWait(at: &gate)
                setGate(gate, parameterKey, &garbage)
                return .join(build, gate.waitPoint)
            }
            outdated = gate
        }
        let claim = BuildClaim(location: self, parameterKey: parameterKey, scopeID: scopeID, stamp: stamp, shutdown: shutdown)
        let build = kind.start(claim)
        setGate(BuildGate(build: build, scopeID: scopeID, stamp: stamp), parameterKey, &garbage)
        return .build(build, claim)
    }

    func setGate(_ gate: BuildGate, _ parameterKey: ParameterKey?, _ garbage: inout Garbage) {
        if let parameterKey {
            cells.setParameterGate(gate, for: parameterKey, &garbage)
        } else {
            cells.gate = gate
        }
    }
}

struct BuildClaim {
    let location: CacheLocation
    let parameterKey: ParameterKey?
    let scopeID: ObjectIdentifier
    let stamp: BuildStamp
    let shutdown: ShutdownHandler?

    /// Clears the gate unless a newer build replaced it, and caches `value` unless the entry moved
    /// on. Takes the locks; drops after unlocking. The caller wakes the cleared gate's waiters.
    @inline(never)
    func end(
        _ build: AnyObject, storing value: UnsafeRawPointer?, type: Any.Type, key: FactoryKey, manager: ContainerManager
    ) -> (cleared: BuildGate?, current: Bool) {
        var garbage = Garbage()
        defer { garbage.release() }
        let cells = location.cells
        return manager.lock.withLock {
            location.withExtraLock { () -> (BuildGate?, Bool) in
                let current = location.isCurrent(stamp)
                if current, let value {
                    location.store(
                        value, type: type, parameterKey, scopeID: scopeID, key: key, shutdown: shutdown, &garbage)
                }
                // After storing: a key the new entry uses stays in the index.
                var cleared: BuildGate?
                if let parameterKey {
                    if cells.parameterGates[parameterKey]?.build === build {
                        cleared = cells.setParameterGate(nil, for: parameterKey, &garbage)
                    }
                } else if cells.gate.build === build {
                    cleared = cells.gate
                    cells.gate = BuildGate()
                }
                return (cleared, current)
            }
        }
    }
}
