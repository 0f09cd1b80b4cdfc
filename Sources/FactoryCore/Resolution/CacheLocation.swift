/// Where one resolution caches its instance, and which locks guard it: what a
/// ``ScopeStrategy`` places.
package struct CacheLocation {
    let cells: CellSet
    let weak: Bool
    /// The singleton era cells must carry here (registrations' own singletons), else 0.
    let era: Int
    let storage: GlobalStorage?
    /// Also publish the instance as the storage's shared singleton of the factory.
    let writeThrough: Bool
    /// Whether `storage.lock` guards `cells` (and is held while deciding).
    package var storageLocked = false
    /// The container's slot whose lock-free hit reads `cells` (see ``Slot/hit(_:scopeID:ttl:)``),
    /// when they hold the definition's instance; `nil` when that hit must not read them.
    package var hitSlot: Slot?

    package init(cells: CellSet, weak: Bool, era: Int, storage: GlobalStorage?, writeThrough: Bool) {
        self.cells = cells
        self.weak = weak
        self.era = era
        self.storage = storage
        self.writeThrough = writeThrough
    }

    /// The container's own cells of `slot`'s factory, which the definition and
    /// every registration share, and which the slot's lock-free hit reads.
    package static func containerCells(of slot: Slot, weak: Bool) -> CacheLocation {
        var location = CacheLocation(cells: slot.cells, weak: weak, era: 0, storage: nil, writeThrough: false)
        location.hitSlot = slot
        return location
    }

    /// The stamp of a build placed here now.
    var stamp: BuildStamp {
        BuildStamp(generation: cells.generation, era: era)
    }

    /// Whether a build placed here with `stamp` may still store: no `register`,
    /// reset or `pop()` moved the cells' generation, and, for cells with an era,
    /// the singleton storage was not reset since the location was placed.
    func isCurrent(_ stamp: BuildStamp) -> Bool {
        cells.generation == stamp.generation && (era == 0 || storage?.era.value == era)
    }

    /// Makes ``hitSlot``'s lock-free hit read these cells from now on. Manager lock held.
    func linkHit(_ garbage: inout Garbage) {
        hitSlot?.linkHit(to: cells, &garbage)
    }

    /// The valid instance cached for `parameterKey` (or the unparameterized one)
    /// under `scopeID`, `ttl` and this location's era; one that expired, was
    /// released or is stale is dropped into `garbage`. Locks held.
    func cachedValue<T>(
        _ type: T.Type, _ parameterKey: ParameterKey?, scopeID: ObjectIdentifier, ttl: UInt64, _ garbage: inout Garbage
    ) -> T? {
        guard let cell = parameterKey.map({ cells.parameterCells[$0] }) ?? cells.cell else { return nil }
        if cell.era == era && cell.isValid(scopeID: scopeID, ttl: ttl), let value = Self.value(of: cell, T.self) {
            return value
        }
        if let parameterKey {
            cells.removeParameterCell(parameterKey, &garbage)
        } else {
            cells.setCell(nil, &garbage)
        }
        return nil
    }

    /// The instance `cell` holds, `nil` once a weak one is gone. `cell` was made
    /// by ``store(_:_:scopeID:key:shutdown:_:)`` for a factory whose key names
    /// `T`, and the cells of a location hold only that factory's instances;
    /// `isWeak` says which of the two classes it is.
    static func value<T>(of cell: CacheCell, _ type: T.Type) -> T? {
        cell.isWeak ? unsafeDowncast(cell, to: WeakCell<T>.self).value : unsafeDowncast(cell, to: StrongCell<T>.self).value
    }

    /// The valid instance cell of `key`, without dropping an invalid one. Locks held.
    func validParameterCell(_ key: ParameterKey, scopeID: ObjectIdentifier, ttl: UInt64) -> CacheCell? {
        guard let cell = cells.parameterCells[key], cell.era == era, cell.isValid(scopeID: scopeID, ttl: ttl) else {
            return nil
        }
        return cell
    }

    /// Caches `value` for `parameterKey` (or as the unparameterized instance, then
    /// also written through; see ``writeThrough``). A value that cannot be held
    /// weakly is not cached under a weak scope. With a `shutdown` handler, the
    /// cell records it (not for a weak scope: the container does not own what it
    /// holds weakly). Locks held.
    func store<T>(
        _ value: T, _ parameterKey: ParameterKey?, scopeID: ObjectIdentifier, key: FactoryKey,
        shutdown: ShutdownHandlerBase?, _ garbage: inout Garbage
    ) {
        let now = CacheCell.now()
        let record = weak ? nil : shutdown.map { ShutdownRecord(handler: $0, key: key) }
        let made: CacheCell? =
            weak
            ? WeakCell(value, scopeID: scopeID, createdAt: now, era: era)
            : StrongCell(value, scopeID: scopeID, createdAt: now, era: era, shutdown: record)
        guard let cell = made else { return }
        if let parameterKey {
            garbage.add(cells.parameterCells.updateValue(cell, forKey: parameterKey))
            cells.indexParameterKey(parameterKey)
        } else {
            cells.setCell(cell, &garbage)
            writeThrough(value, key: key, scopeID: scopeID, createdAt: now, shutdown: record, &garbage)
        }
    }

    /// With ``writeThrough``, also publishes `value` as the storage's shared
    /// singleton of `key`: Factory's behaviour, where the last singleton a
    /// registration built is the one that containers whose registration describes
    /// the type (`autoRegister()`) see. Manager lock held, storage lock not.
    func writeThrough<T>(
        _ value: T, key: FactoryKey, scopeID: ObjectIdentifier, createdAt: UInt64, shutdown: ShutdownRecord?,
        _ garbage: inout Garbage
    ) {
        guard writeThrough, let storage else { return }
        // The same record as the registration's own cell: one instance, one shutdown.
        let shared = StrongCell(value, scopeID: scopeID, createdAt: createdAt, era: 0, shutdown: shutdown)
        storage.share(shared, for: key, &garbage)
    }

    /// Runs `body` with the storage's lock held again, when it guards ``cells``; manager lock held.
    func withStorageLock<Result>(_ body: () -> Result) -> Result {
        guard storageLocked, let storage else { return body() }
        return storage.lock.withLock(body)
    }
}
