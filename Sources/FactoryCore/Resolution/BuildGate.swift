// One build of a cached instance at a time, for synchronous and asynchronous
// factories alike. A cache entry records the build under way in a `BuildGate`;
// what is decided there (join it, replace an outdated one, start one) and how a
// build ends (clear its gate, store its instance) is written once below. A kind
// of factory only says how a waiter waits (`BuildJoining`): a thread blocks at
// the gate's `WaitPoint`, a task suspends on the `AsyncBuild`.

/// Which state of a cache entry a build belongs to: the cells' generation (bumped
/// by `register`, every reset and `pop()`) and the epoch its location carries
/// (see ``CacheLocation/epoch``). A build whose stamp is no longer the entry's
/// is neither joined nor stored.
package struct BuildStamp: Equatable, Sendable {
    package var generation: Int
    package var epoch: Int
}

/// The build of one instance under way in a cache entry, and where its waiters wait.
package struct BuildGate {
    /// What runs the build, `nil` when none runs: the building thread's
    /// `ResolutionContext` for a synchronous factory, the `AsyncBuild` for an
    /// asynchronous one.
    package var build: AnyObject?
    /// The scope the build is for, so that resetting that scope can outdate it.
    package var scopeID: ObjectIdentifier?
    /// Where the cache stood when the build started: once it moved on, the build
    /// is neither joined nor waited for.
    package var stamp = BuildStamp(generation: 0, epoch: 0)
    /// Where threads wait for a synchronous build; made by the first waiter.
    package var waitPoint: WaitPoint?

    package init() {}

    init(build: AnyObject, scopeID: ObjectIdentifier, stamp: BuildStamp) {
        self.build = build
        self.scopeID = scopeID
        self.stamp = stamp
    }

    /// Sends whoever waits for this gate's build back to decide again: a build
    /// of a newer generation replaced it, or it was given up. No lock held.
    func releaseWaiters() {
        waitPoint?.open()
        #if SwiftConcurrency
        (build as? any SupersedableBuild)?.supersede()
        #endif
    }
}

/// How resolutions of one kind of factory join a build another resolution runs:
/// the only part of the cache decision that differs between synchronous and
/// asynchronous factories.
protocol BuildJoining {
    /// What runs a build of this kind (what ``BuildGate/build`` holds).
    associatedtype Build: AnyObject
    /// `running` as a build of this kind; `nil` for one of another kind, which
    /// is then treated as outdated. Keys keep the kinds apart, and a
    /// custom scope's cache belongs to one factory, so this is a checked cast that
    /// always succeeds.
    func build(_ running: AnyObject) -> Build?
    /// Whether this resolution runs inside `build`: joining it would wait forever.
    func runsInside(_ build: Build) -> Bool
    /// A build of `claim`'s entry, run by this resolution.
    func start(_ claim: BuildClaim) -> Build
    /// Readies `gate` for one more waiter; locks held.
    func prepareToWait(at gate: inout BuildGate)
}

/// What a resolution that missed does at a cache location, decided with its
/// locks held (``CacheLocation/decideBuild(_:_:scopeID:ttl:shutdown:found:_:_:)``).
enum GateDecision<Build> {
    /// A valid instance was cached after all.
    case cached(FoundInstance)
    /// This resolution runs inside the build under way: build without caching
    /// (or report the cycle, for an equal parameter).
    case inside
    /// Another resolution builds it, in the current generation: wait (at the
    /// point, for a thread), then decide again.
    case join(Build, WaitPoint?)
    /// This resolution builds it; `BuildClaim/end(_:storing:type:key:manager:)` ends the build.
    case build(Build, BuildClaim)
    /// The parameter must be compared with these keys of its hash, with no lock
    /// held (``ParameterLookup/compare(_:_:)``): a hit if they carry its
    /// instance, else decide again.
    case compare(ParameterCandidates)
}

extension ContainerManager {
    /// How many resolutions from this container, threads and tasks, are waiting
    /// right now for a build another resolution runs (they decided to join it).
    /// For tests: a test that lands a `register` or reset "while threads wait
    /// for a build" waits for this count instead of sleeping and hoping. A
    /// graph-validation thread parked while it waited stays counted.
    package var buildWaiters: Int {
        lock.withLock { state.buildWaiters }
    }

    /// Counts one resolution that joins another's build, for ``buildWaiters``;
    /// `-1` when it stops waiting. Only on the waiting path, which blocks anyway.
    @inline(never)
    func countBuildWaiter(_ delta: Int) {
        lock.withLock { state.buildWaiters += delta }
    }

    /// Waits, on this thread, for the build `builder` runs, counted in ``buildWaiters``.
    /// Out of line: the resolution that waits blocks anyway, and the path that
    /// decides stays small.
    @inline(never)
    func waitForBuild(_ waiter: ResolutionContext, of builder: ResolutionContext, key: FactoryKey, at point: WaitPoint) {
        countBuildWaiter(1)
        WaitGraph.wait(waiter, for: builder, key: key, at: point)
        countBuildWaiter(-1)
    }

    /// The frame of every cache decision, for both kinds of factory. Under the
    /// container's lock (a shut-down container gives `shutDown`), `resolve`
    /// chooses the factory's closure and options again from its slot and the
    /// container's default scope; `place` says which scope caches them, with the
    /// registration box that chose the closure, or `nil` to build without caching
    /// (`uncached`); the scope's strategy places the instance, and `decide` runs
    /// there with the location's locks held. What the decision drops, and the
    /// waiters of a build it outdated, are released after unlocking.
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
    /// Reads the cache for `parameter` (or the unparameterized instance), then
    /// joins the build under way or starts one. Locks held.
    ///
    /// A build of an older generation or epoch (a `register`, reset or `pop()`
    /// returned since it started) is neither joined nor waited for: this
    /// resolution starts one of the current generation, and the old gate, handed
    /// back in `outdated`, has its waiters released after unlocking
    /// (``BuildGate/releaseWaiters()``). What the cache drops goes to `garbage`.
    /// A parameter whose key is not settled yet gets `compare`.
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

/// A build a resolution claimed: where its instance goes and the state of the
/// entry it belongs to.
struct BuildClaim {
    let location: CacheLocation
    let parameterKey: ParameterKey?
    let scopeID: ObjectIdentifier
    let stamp: BuildStamp
    /// How the instance is shut down, if its factory says.
    let shutdown: ShutdownHandler?

    /// Ends `build`, which this claim placed: clears its gate, unless a build of a
    /// newer generation or epoch replaced it (and released this one's waiters then),
    /// and caches the instance at `value` (of the factory's value type `type`), if
    /// there is one, unless the entry's generation or epoch moved on. Takes the
    /// locks; what it drops is released after unlocking. Returns the gate it
    /// cleared, whose waiters the caller wakes, and whether the build was still current.
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
