import CFactoryAtomics

// The cache, for every kind and every caching scope: one decision under the locks (`ContainerManager.decide`), over
// the place the scope's strategy hands back (`CacheLocation`), and one end of a build (`BuildClaim.end`). A build runs
// once per generation however many threads and tasks ask: the first to miss records its build in the entry's gate
// and builds with no lock held; the others wait for it, a thread at the gate's `WaitPoint`, a task on the
// `AsyncBuild`. What the decision drops, and an outdated build's waiters, are released after unlocking.

/// Where a resolution caches its instance and which locks guard it, as a ``ScopeStrategy`` places it.
package struct CacheLocation {
    let cells: CellSet
    /// Instances held weakly (the shared scope): a value that is no object is not cached.
    let weak: Bool
    /// Guards ``cells`` besides the container's lock; taken after it, never the other way round.
    let extraLock: FactoryLock?
    /// The lock-free hit may read ``cells`` through the factory's slot (``Slot/hitLink``).
    let linked: Bool
    /// Bumped when everything placed here goes stale (a singleton storage's era); `nil` for none.
    let era: AtomicWord?
    let epoch: Int  // `era`'s value when placed, 0 for none: a cell or build of another epoch is stale
    /// Cells guarded by ``extraLock`` that also get each unparameterized instance stored here.
    let mirror: CellSet?

    package init(
        cells: CellSet, weak: Bool = false, extraLock: FactoryLock? = nil, linked: Bool = false, era: AtomicWord? = nil,
        mirror: CellSet? = nil
    ) {
        self.cells = cells
        self.weak = weak
        self.extraLock = extraLock
        self.linked = linked
        self.era = era
        epoch = era?.value ?? 0
        self.mirror = mirror
    }
}

/// Who is deciding: how it waits for a build under way is the only part of the decision that differs by kind.
enum Joiner {
    case thread(ResolutionContext)
    #if SwiftConcurrency
    case task(AsyncChain)
    #endif
}

/// What a resolution does next, decided under the locks.
enum Decision {
    case found(FoundInstance)
    /// Run the closure; with a claim, cache what it builds.
    case build(BuildClaim?)
    /// A thread waits at the point for the thread building the entry, then decides again.
    case wait(ResolutionContext, WaitPoint)
    #if SwiftConcurrency
    /// A task awaits another task's build; `nil` from it: decide again.
    case join(AsyncBuild)
    /// A task starts the build, which runs in a task of its own.
    case start(AsyncBuild)
    #endif
    /// Compare the parameter with these keys unlocked (``ParameterLookup/compare(_:)``): a hit, or decide again.
    case compare(ParameterCandidates)
    /// The build under way is this resolution's own, or one it runs inside: joining would wait forever.
    case reentered
    /// A `register`, reset or default-scope change came after the options were merged: merge again, then decide.
    case retry
    case shutDown
}

extension ContainerManager {
    /// The one decision of every cached resolution, sync or async. `options` must be current (else ``Decision/retry``);
    /// `parameter` is set for `scopeOnParameters`, `prepared` for a strategy's prepared cells.
    func decide(
        _ key: FactoryKey, _ options: ResolvedOptions, _ parameter: ParameterLookup?, prepared: CellSet?, joiner: Joiner
    ) -> Decision {
        var garbage = Garbage()
        var outdated: BuildGate?
        let decision = lock.withLock { decideLocked(key, options, parameter, prepared, joiner, &garbage, &outdated) }
        outdated?.releaseWaiters()
        garbage.release()
        return decision
    }

    private func decideLocked(
        _ key: FactoryKey, _ options: ResolvedOptions, _ parameter: ParameterLookup?, _ prepared: CellSet?,
        _ joiner: Joiner, _ garbage: inout Garbage, _ outdated: inout BuildGate?
    ) -> Decision {
        if state.isShutDown { return .shutDown }
        let slot = table.findOrInsert(key)
        // The closure and options must be the current ones: a build never runs a closure older than its generation.
        guard slot.publishedOptions.load()?.takeUnretainedValue() === options.persisted,
            slot.publishedRegistration.load()?.takeUnretainedValue() === options.registration,
            state.defaultScope === options.defaultScope?.takeUnretainedValue()
        else { return .retry }
        let place: CacheLocation?
        switch options.scope?.keeping {
        case .cells:
            place = options.scope?.strategy?.location(
                options.scope!, key: key, box: options.box, containerCells: slot.cells, manager: self)
        case .preparedCells: place = prepared.map { CacheLocation(cells: $0) }
        default: place = nil
        }
        guard let location = place else { return .build(nil) }
        if location.linked { slot.linkHit(to: location.cells, &garbage) }
        guard let extraLock = location.extraLock else {
            return location.decide(key, options, parameter, joiner, self, &garbage, &outdated)
        }
        return extraLock.withLock { location.decide(key, options, parameter, joiner, self, &garbage, &outdated) }
    }

    /// Resolutions (threads and tasks) now waiting for another's build. Tests wait for this count instead of
    /// sleeping; a parked graph-validation thread stays counted.
    package var buildWaiters: Int { lock.withLock { state.buildWaiters } }

    /// Only on the waiting path, which blocks anyway.
    @inline(never)
    func countBuildWaiter(_ delta: Int) { lock.withLock { state.buildWaiters += delta } }
}

extension Resolution {
    /// The cache's next step for a resolution of any kind: a lock-free hit (unless it `waited`, then the decision sees
    /// a change since), else the decision under the locks; it compares a parameter unlocked and merges the options
    /// again after a change, so a kind only sees an instance, a build to run (cached with a claim, or not), or another's
    /// build to wait for: what differs is how it waits.
    mutating func cacheStep(
        _ registration: FactoryRegistration, _ lookup: inout ParameterLookup?, waited: Bool, joiner: Joiner
    ) -> Decision {
        let manager = registration.manager
        let key = registration.key
        while let scope = options.scope {
            var prepared: CellSet?
            switch scope.keeping {
            case .cells: break
            case .preparedCells:
                // A custom strategy is user code: asked before locking.
                prepared = scope.strategy?.prepare(scope, key: key, manager: manager)
                if prepared == nil { return .build(nil) }
            case .nothing, .cycle: return .build(nil)  // changed by a `register` meanwhile
            }
            if options.scopeOnParameters {
                if lookup == nil { return .build(nil) }  // a parameter that cannot be a key
            } else if !waited, let found = manager.hit(key, options, prepared: prepared) {
                return .found(found)
            }
            let decision = manager.decide(
                key, options, options.scopeOnParameters ? lookup : nil, prepared: prepared, joiner: joiner)
            switch decision {
            case .compare(let candidates):
                if let found = lookup?.compare(candidates) { return .found(found) }
            case .retry:
                options = ResolvedOptions.now(registration, flags: manager.flags.value)
            default:
                return decision
            }
        }
        return .build(nil)
    }
}

extension CacheLocation {
    /// The entry's instance, or the build to join or start; locks held. An outdated build (a `register`, reset or
    /// `pop()` returned since it started) is not joined: this resolution starts a current one, and the old gate goes to
    /// `outdated` to release its waiters after unlocking. A parameter whose key is unsettled gets `compare`.
    fileprivate func decide(
        _ key: FactoryKey, _ options: ResolvedOptions, _ parameter: ParameterLookup?, _ joiner: Joiner,
        _ manager: ContainerManager, _ garbage: inout Garbage, _ outdated: inout BuildGate?
    ) -> Decision {
        let scopeID = ObjectIdentifier(options.scope!)
        let ttl = options.ttl
        var parameterKey: ParameterKey?
        if let parameter {
            guard let found = parameter.key(in: cells) else {
                let keys = cells.parameterKeys(hash: parameter.hash)
                // The common case, one key of this hash: its instance comes along.
                let cell = keys.count == 1 ? cells.entry(keys[0]).cell.flatMap { valid($0, scopeID, ttl) } : nil
                return .compare(ParameterCandidates(keys: keys, cell: cell))
            }
            parameterKey = found
        }
        var entry = cells.entry(parameterKey)
        if let cell = entry.cell {
            if let found = valid(cell, scopeID, ttl)?.found() { return .found(found) }
            // Expired, released or stale.
            entry.cell = nil
            cells.setEntry(entry, for: parameterKey, &garbage)
        }
        let generation = cells.generation
        if let gate = entry.gate {
            if gate.generation == generation && gate.epoch == epoch,
                let joined = join(gate, parameterKey, joiner, &garbage)
            {
                return joined
            }
            // Outdated, or another kind's (keys keep kinds apart, so never in practice).
            outdated = gate
        }
        let claim = BuildClaim(
            location: self, parameterKey: parameterKey, scopeID: scopeID, generation: generation,
            shutdown: options.shutdown, key: key, manager: manager)
        let build: AnyObject
        let decision: Decision
        switch joiner {
        case .thread(let context):
            (build, decision) = (context, .build(claim))
        #if SwiftConcurrency
        case .task(let node):
            let started = AsyncBuild(claim: claim, node: node)
            (build, decision) = (started, .start(started))
        #endif
        }
        entry.gate = BuildGate(build: build, scopeID: scopeID, generation: generation, epoch: epoch)
        cells.setEntry(entry, for: parameterKey, &garbage)
        return decision
    }

    /// How `joiner` waits for the current build `gate` records: `nil` when it is another kind's. Locks held.
    private func join(
        _ gate: BuildGate, _ parameterKey: ParameterKey?, _ joiner: Joiner, _ garbage: inout Garbage
    ) -> Decision? {
        switch joiner {
        case .thread(let context):
            if gate.build === context { return .reentered }
            guard let builder = gate.build as? ResolutionContext else { return nil }
            var gate = gate
            let point = gate.waitPoint ?? WaitPoint()
            gate.waitPoint = point
            cells.setEntry(CellSet.Entry(gate: gate), for: parameterKey, &garbage)  // its instance was removed
            return .wait(builder, point)
        #if SwiftConcurrency
        case .task(let node):
            guard let build = gate.build as? AsyncBuild else { return nil }
            return node.isInside(build) ? .reentered : .join(build)
        #endif
        }
    }

    /// Of this location's epoch, under `scopeID` and within its time to live.
    private func valid(_ cell: CacheCell, _ scopeID: ObjectIdentifier, _ ttl: UInt64) -> CacheCell? {
        cell.epoch == epoch && cell.isValid(scopeID: scopeID, ttl: ttl) ? cell : nil
    }

    /// Locks held. A value that cannot be held weakly is not cached under a weak scope, and a weak cell records no
    /// shutdown (the container does not own it). Returns the cell stored.
    fileprivate func store(
        _ value: UnsafeRawPointer, type: Any.Type, _ claim: BuildClaim, _ garbage: inout Garbage
    ) -> CacheCell? {
        let record = weak ? nil : claim.shutdown.map { ShutdownRecord(handler: $0, key: claim.key) }
        guard
            let cell = CacheCell.make(
                copying: value, type: type, weak: weak, scopeID: claim.scopeID, createdAt: cfactory_monotonic_ns(), epoch: epoch,
                shutdown: record)
        else { return nil }
        cells.setEntry(CellSet.Entry(cell: cell, gate: cells.entry(claim.parameterKey).gate), for: claim.parameterKey, &garbage)
        if claim.parameterKey != nil { return cell }
        // The same record as this cell's: one instance, one shutdown.
        if let mirror {
            mirror.setCell(
                CacheCell.make(
                    copying: value, type: type, weak: false, scopeID: claim.scopeID, createdAt: cell.createdAt, epoch: 0,
                    shutdown: record),
                &garbage)
        }
        return cell
    }
}

/// The build under way of one cache entry, in the cells' generation (bumped by `register`, resets and `pop()`) and
/// the location's epoch it started in: once either moved on, it is neither joined nor stored.
package struct BuildGate {
    /// The building thread's `ResolutionContext`, or the `AsyncBuild`.
    let build: AnyObject
    let scopeID: ObjectIdentifier  // so that resetting that scope can outdate it
    let generation: Int
    let epoch: Int
    var waitPoint: WaitPoint?  // made when a thread first waits

    /// Sends waiters back to decide again: a newer build replaced it, or it was given up. No lock held.
    func releaseWaiters() {
        waitPoint?.open()
        #if SwiftConcurrency
        (build as? AsyncBuild)?.supersede()
        #endif
    }
}

/// A started build's right to store its instance in its entry. A class: made for a cached build only, and carried by
/// reference across the build.
final class BuildClaim {
    let location: CacheLocation
    let parameterKey: ParameterKey?
    let scopeID: ObjectIdentifier
    let generation: Int
    let shutdown: ShutdownHandler?
    let key: FactoryKey
    let manager: ContainerManager

    init(
        location: CacheLocation, parameterKey: ParameterKey?, scopeID: ObjectIdentifier, generation: Int,
        shutdown: ShutdownHandler?, key: FactoryKey, manager: ContainerManager
    ) {
        self.location = location
        self.parameterKey = parameterKey
        self.scopeID = scopeID
        self.generation = generation
        self.shutdown = shutdown
        self.key = key
        self.manager = manager
    }

    /// Caches `value` unless the entry moved on since the build started, and clears the gate unless a newer build
    /// replaced it; takes the locks, drops after unlocking. Returns the cleared gate, whose waiters the caller wakes,
    /// the cell stored, and whether the build was still current.
    @inline(never)
    func end(
        _ build: AnyObject, storing value: UnsafeRawPointer?, type: Any.Type
    ) -> (cleared: BuildGate?, stored: CacheCell?, current: Bool) {
        var garbage = Garbage()
        let end = manager.lock.withLock(then: location.extraLock) { () -> (BuildGate?, CacheCell?, Bool) in
            let cells = location.cells
            let current = cells.generation == generation && (location.era == nil || location.era?.value == location.epoch)
            var stored: CacheCell?
            if current, let value { stored = location.store(value, type: type, self, &garbage) }
            var entry = cells.entry(parameterKey)
            guard entry.gate?.build === build else { return (nil, stored, current) }
            let cleared = entry.gate
            entry.gate = nil
            cells.setEntry(entry, for: parameterKey, &garbage)
            return (cleared, stored, current)
        }
        garbage.release()
        return end
    }
}

// The hit's lookup (flags, slot, linked cells, validity) needs no value type, so it is compiled once, in the library
// (`FactoryRegistration.hit()`); a caller compiles per factory only the read out of the cell (`CellHit.read`). One code
// for every scope and kind: a miss links from the slot where a strategy keeps the definition's instance.

/// A cell the hit found, inside the read section that keeps it alive, or nothing.
@frozen @usableFromInline
package struct CellHit {
    /// Unretained: alive until ``end()``.
    @usableFromInline let cell: Unmanaged<CacheCell>?
    /// The open read section, when there is a cell.
    @usableFromInline let record: UnsafeMutableRawPointer?

    @inlinable
    init(cell: Unmanaged<CacheCell>?, record: UnsafeMutableRawPointer?) {
        self.cell = cell
        self.record = record
    }

    /// Then ``readStrong(_:)`` reads it.
    @inlinable
    var isStrong: Bool {
        guard let cell else { return false }
        return cell._withUnsafeGuaranteedRef { !$0.isWeak }
    }

    /// Copies out and ends the section. `T` is certain: a slot's cells hold only its key's `T`. No
    /// `T?` on the way: unspecialized, an optional of `T` costs a metadata lookup.
    @_alwaysEmitIntoClient @inline(__always) @usableFromInline
    package func readStrong<T>(_ type: T.Type) -> T {
        // Retained before the section ends: `cfactory_read_end` is opaque, no retain moves across it.
        let value = cell.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.storage.assumingMemoryBound(to: T.self).pointee }
        ReadSection(record: record.unsafelyUnwrapped).end()
        return value
    }

    /// For a hit that will not be read.
    @inlinable
    func end() {
        if let record { ReadSection(record: record).end() }
    }

    /// Held, section ended; `nil` on a miss or for a weak instance that is gone.
    func found() -> FoundInstance? {
        defer { end() }
        return cell?._withUnsafeGuaranteedRef { $0.found() }
    }
}

extension FactoryRegistration {
    /// In the common case (nothing persisted, no definition option beyond scope and ttl, a valid
    /// linked instance), the cell inside a read section the caller ends by reading it; lock-free,
    /// writing no shared memory. Else ``CellHit/miss``.
    @usableFromInline
    package func hit() -> CellHit {
        let flags = manager.flags.value
        guard
            flags & (ContainerManager.Flag.general | ContainerManager.Flag.ready.rawValue) == ContainerManager.Flag.ready.rawValue
                && !traits.contains(.general), let scope = scopeReference
        else { return CellHit(cell: nil, record: nil) }
        return hit(in: scope)
    }

    /// Flags and traits already checked.
    @inline(__always)
    private func hit(in scope: Unmanaged<Scope>) -> CellHit {
        guard scope._withUnsafeGuaranteedRef({ $0.keeping }) == .cells, let slot = manager.findSlot(key) else {
            return CellHit(cell: nil, record: nil)
        }
        let scopeID = scope._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
        let section = ReadSection.begin()
        // Inside the section: a relink releases replaced cells only after waiting for readers.
        if let cell = slot._withUnsafeGuaranteedRef({ $0.linkedCell(scopeID: scopeID, ttl: ttl) }) {
            return CellHit(cell: cell, record: section.record)
        }
        section.end()
        return CellHit(cell: nil, record: nil)
    }

    /// A sync resolution's first step: the hit, or, when the definition's closure is all that runs
    /// (nothing persisted or watched, no option, an uncaching scope), the build entered on the
    /// thread's context; the caller runs the closure and calls ``endDirectBuild(_:)``. Else nothing.
    @usableFromInline
    package func fastStep(parameter: UnsafeRawPointer?) -> FastStep {
        let flags = manager.flags.value
        // Any option beyond scope and ttl (`.general`, `Flag.options.rawValue`) takes the general path,
        // which applies them all: a decorator, say, needs the instance's address, and taking it in
        // `resolved()` would give every hit there a stack protector.
        guard
            flags & (ContainerManager.Flag.general | ContainerManager.Flag.ready.rawValue) == ContainerManager.Flag.ready.rawValue
                && !traits.contains(.general)
        else { return FastStep(hit: CellHit(cell: nil, record: nil), build: nil) }
        if let scope = scopeReference, scope._withUnsafeGuaranteedRef({ $0.keeping }) != .nothing {
            return FastStep(hit: hit(in: scope), build: nil)
        }
        // A recording of every container records this build: the general path begins and ends it.
        if cfactory_profiling_everywhere() != 0 { return FastStep(hit: CellHit(cell: nil, record: nil), build: nil) }
        if isolation == .main && !cfactory_is_main_actor() { failMainActor(key) }
        let context = ResolutionContext.currentUnmanaged
        context._withUnsafeGuaranteedRef {
            $0.enter(
                GeneralPath.frame(self, pointer: parameter), checkCycles: flags & ContainerManager.Flag.checkCycles.rawValue != 0)
        }
        return FastStep(hit: CellHit(cell: nil, record: nil), build: context)
    }

    @usableFromInline
    package func endDirectBuild(_ context: Unmanaged<ResolutionContext>) {
        context._withUnsafeGuaranteedRef { $0.leave() }
    }
}

/// A hit, a build to run directly (on the context whose frame it entered), or neither.
@frozen @usableFromInline
package struct FastStep {
    @usableFromInline let hit: CellHit
    @usableFromInline let build: Unmanaged<ResolutionContext>?

    @inlinable
    init(hit: CellHit, build: Unmanaged<ResolutionContext>?) {
        self.hit = hit
        self.build = build
    }
}

extension Slot {
    /// Unretained, valid inside the caller's read section; the definition's instance. `nil` before any decision and for
    /// scopes whose instances live nowhere a container can link (unique, graph, custom strategies). Read only while the
    /// container persists nothing, so the cells admit the definition: a change to what a slot persists unlinks it
    /// (``ContainerManager/setOptions(_:of:_:)``), and every decision since was made for the definition.
    @inline(__always)
    func linkedCell(scopeID: ObjectIdentifier, ttl: UInt64) -> Unmanaged<CacheCell>? {
        guard let linked = hitLink.load() else { return nil }
        return linked._withUnsafeGuaranteedRef { $0.validCell(scopeID: scopeID, ttl: ttl, epoch: 0) }
    }
}

extension ContainerManager {
    /// The general path's lock-free hit, every kind's: in the strategy's prepared cells, else in the cells the slot
    /// links when they hold what `options`' closure builds. No lock held; `nil` leaves it to the decision.
    func hit(_ key: FactoryKey, _ options: ResolvedOptions, prepared: CellSet?) -> FoundInstance? {
        guard let scope = options.scope else { return nil }
        // Section first: linked cells may be a singleton storage's, freed only after waiting for readers.
        let section = ReadSection.begin()
        var found: FoundInstance?
        var cells = prepared
        if cells == nil { cells = findSlot(key)?.takeUnretainedValue().hitLink.load()?.takeUnretainedValue() }
        if let cells, cells.admits(options.box) {
            found = cells.validCell(scopeID: ObjectIdentifier(scope), ttl: options.ttl, epoch: 0)?.takeUnretainedValue().found()
        }
        section.end()
        return found
    }
}
