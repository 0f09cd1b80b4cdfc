/// Where one resolution caches its instance, and which locks guard it: what a
/// ``ScopeStrategy`` places. The engine runs the cache over it (one build at a
/// time, time to live, per-parameter instances, resets) the same way for every
/// strategy; what a strategy adds beyond the cells is said by the fields below,
/// none of which the engine interprets for a particular scope.
package struct CacheLocation {
    let cells: CellSet
    let weak: Bool
    /// The epoch the cells must carry here, 0 for none: a cell or a build of
    /// another epoch is stale. While ``epochCounter`` holds another value, what
    /// was placed here is stale too.
    let epoch: Int
    /// The counter ``epoch`` was read from, for locations with an epoch.
    let epochCounter: AtomicWord?
    /// A lock that guards ``cells`` besides the container's, held while deciding
    /// here (taken after the container's lock, never the other way round).
    package var extraLock: FactoryLock?
    /// Told about each unparameterized instance stored here, with the locations'
    /// locks held, to keep it somewhere else too.
    package var storeObserver: (any CacheStoreObserver)?
    /// The container's slot whose lock-free hit reads `cells` (see ``Slot/linkedCell(scopeID:ttl:)``),
    /// when they hold the definition's instance; `nil` when that hit must not read them.
    package var hitSlot: Slot?

    package init(cells: CellSet, weak: Bool, epoch: Int = 0, epochCounter: AtomicWord? = nil) {
        self.cells = cells
        self.weak = weak
        self.epoch = epoch
        self.epochCounter = epochCounter
    }

    /// The container's own cells of `slot`'s factory, which the definition and
    /// every registration share, and which the slot's lock-free hit reads.
    package static func containerCells(of slot: Slot, weak: Bool) -> CacheLocation {
        var location = CacheLocation(cells: slot.cells, weak: weak)
        location.hitSlot = slot
        return location
    }

    /// The stamp of a build placed here now.
    var stamp: BuildStamp {
        BuildStamp(generation: cells.generation, epoch: epoch)
    }

    /// Whether a build placed here with `stamp` may still store: no `register`,
    /// reset or `pop()` moved the cells' generation, and the location's epoch
    /// counter, if it has one, did not move since the location was placed.
    func isCurrent(_ stamp: BuildStamp) -> Bool {
        cells.generation == stamp.generation && (epochCounter == nil || epochCounter?.value == epoch)
    }

    /// Makes ``hitSlot``'s lock-free hit read these cells from now on. Manager lock held.
    func linkHit(_ garbage: inout Garbage) {
        hitSlot?.linkHit(to: cells, &garbage)
    }

    /// The valid instance cached for `parameterKey` (or the unparameterized one)
    /// under `scopeID`, `ttl` and this location's epoch; one that expired, was
    /// released or is stale is dropped into `garbage`. Locks held.
    func cachedInstance(
        _ parameterKey: ParameterKey?, scopeID: ObjectIdentifier, ttl: UInt64, _ garbage: inout Garbage
    )
        -> FoundInstance?
    {
        guard let cell = parameterKey.map({ cells.parameterCells[$0] }) ?? cells.cell else { return nil }
        if cell.epoch == epoch && cell.isValid(scopeID: scopeID, ttl: ttl), let found = cell.found() {
            return found
        }
        if let parameterKey {
            cells.removeParameterCell(parameterKey, &garbage)
        } else {
            cells.setCell(nil, &garbage)
        }
        return nil
    }

    /// The valid instance cell of `key`, without dropping an invalid one. Locks held.
    func validParameterCell(_ key: ParameterKey, scopeID: ObjectIdentifier, ttl: UInt64) -> CacheCell? {
        guard let cell = cells.parameterCells[key], cell.epoch == epoch, cell.isValid(scopeID: scopeID, ttl: ttl) else {
            return nil
        }
        return cell
    }

    /// Caches the instance at `value`, of type `type`, for `parameterKey` (or as
    /// the unparameterized instance, which ``storeObserver`` is told about). A
    /// value that cannot be held weakly is not cached under a weak scope. With a
    /// `shutdown` handler, the cell records it (not for a weak scope: the container
    /// does not own what it holds weakly). Locks held.
    func store(
        _ value: UnsafeRawPointer, type: Any.Type, _ parameterKey: ParameterKey?, scopeID: ObjectIdentifier,
        key: FactoryKey, shutdown: ShutdownHandler?, _ garbage: inout Garbage
    ) {
        let record = weak ? nil : shutdown.map { ShutdownRecord(handler: $0, key: key) }
        guard
            let cell = CacheCell.make(
                copying: value, type: type, weak: weak, scopeID: scopeID, createdAt: CacheCell.now(), epoch: epoch,
                shutdown: record)
        else { return }
        if let parameterKey {
            garbage.add(cells.parameterCells.updateValue(cell, forKey: parameterKey))
            cells.indexParameterKey(parameterKey)
        } else {
            cells.setCell(cell, &garbage)
            storeObserver?.stored(cell, value: value, type: type, key: key, &garbage)
        }
    }

    /// Runs `body` with ``extraLock`` held again, when there is one; manager lock held.
    func withExtraLock<Result>(_ body: () -> Result) -> Result {
        guard let extraLock else { return body() }
        return extraLock.withLock(body)
    }
}

/// What a strategy does when a location it placed stores an unparameterized
/// instance: keeping it somewhere else too. The locations' locks are held (not
/// ``CacheLocation/extraLock`` when the observer takes it itself); what it
/// replaces goes to `garbage`.
package protocol CacheStoreObserver: AnyObject {
    /// `cell` was stored for `key`; `value` is its instance, of type `type`.
    func stored(_ cell: CacheCell, value: UnsafeRawPointer, type: Any.Type, key: FactoryKey, _ garbage: inout Garbage)
}
