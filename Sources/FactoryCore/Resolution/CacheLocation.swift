/// Where a resolution caches its instance and which locks guard it, as a ``ScopeStrategy``
/// places it. The engine runs the cache over it the same way for every strategy.
package struct CacheLocation {
    let cells: CellSet
    let weak: Bool
    /// 0 for none. A cell or build of another epoch is stale, and so is everything placed here
    /// once ``epochCounter`` moves on.
    let epoch: Int
    let epochCounter: AtomicWord?
    /// Guards ``cells`` besides the container's lock, held while deciding; taken after the
    /// container's lock, never the other way round.
    package var extraLock: FactoryLock?
    /// Told of each unparameterized instance stored here, locks held, to keep it elsewhere too.
    package var storeObserver: (any CacheStoreObserver)?
    /// The slot whose lock-free hit reads `cells` (``Slot/linkedCell(scopeID:ttl:)``); `nil` when it must not.
    package var hitSlot: Slot?

    package init(cells: CellSet, weak: Bool, epoch: Int = 0, epochCounter: AtomicWord? = nil) {
        self.cells = cells
        self.weak = weak
        self.epoch = epoch
        self.epochCounter = epochCounter
    }

    /// Shared by the definition and every registration; the slot's hit reads them.
    package static func containerCells(of slot: Slot, weak: Bool) -> CacheLocation {
        var location = CacheLocation(cells: slot.cells, weak: weak)
        location.hitSlot = slot
        return location
    }

    var stamp: BuildStamp {
        BuildStamp(generation: cells.generation, epoch: epoch)
    }

    /// Neither the cells' generation nor the epoch counter moved since the build was placed.
    func isCurrent(_ stamp: BuildStamp) -> Bool {
        cells.generation == stamp.generation && (epochCounter == nil || epochCounter?.value == epoch)
    }

    func linkHit(_ garbage: inout Garbage) { hitSlot?.linkHit(to: cells, &garbage) }  // manager lock held

    /// An expired, released or stale one is dropped into `garbage`. Locks held.
    func cachedInstance(
        _ parameterKey: ParameterKey?, scopeID: ObjectIdentifier, ttl: UInt64, _ garbage: inout Garbage
    ) -> FoundInstance? {
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

    /// Drops nothing. Locks held.
    func validParameterCell(_ key: ParameterKey, scopeID: ObjectIdentifier, ttl: UInt64) -> CacheCell? {
        guard let cell = cells.parameterCells[key], cell.epoch == epoch, cell.isValid(scopeID: scopeID, ttl: ttl) else {
            return nil
        }
        return cell
    }

    /// A value that cannot be held weakly is not cached under a weak scope, and a weak cell records
    /// no shutdown (the container does not own it). Locks held.
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

    func withExtraLock<Result>(_ body: () -> Result) -> Result {  // manager lock held
        guard let extraLock else { return body() }
        return extraLock.withLock(body)
    }
}

/// Keeps a stored unparameterized instance elsewhere too. Locks held (not ``CacheLocation/extraLock``
/// when the observer takes it itself); what it replaces goes to `garbage`.
package protocol CacheStoreObserver: AnyObject {
    func stored(_ cell: CacheCell, value: UnsafeRawPointer, type: Any.Type, key: FactoryKey, _ garbage: inout Garbage)
}
