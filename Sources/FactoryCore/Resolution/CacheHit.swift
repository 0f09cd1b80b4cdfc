// A cache hit: what a factory value's resolution tries first. The lookup (the
// container's flags, the factory's slot, the cells its last miss linked, the
// cell's validity) does not need the value type, so it is one function compiled
// once, in the library (`FactoryRegistration.hit()`). What a caller compiles per
// factory is the read of the instance out of the cell it returns (`CellHit.read`).
// The same code serves every scope and every kind of factory: where a strategy
// keeps the definition's instance is linked from the slot by a miss.

/// A cell the hit found, inside the read section that keeps it alive, or nothing.
@frozen @usableFromInline
package struct CellHit {
    /// The valid cell, unretained: alive until ``end()``.
    @usableFromInline let cell: Unmanaged<CacheCell>?
    /// The open read section, when there is a cell.
    @usableFromInline let record: UnsafeMutableRawPointer?

    @inlinable
    init(cell: Unmanaged<CacheCell>?, record: UnsafeMutableRawPointer?) {
        self.cell = cell
        self.record = record
    }

    /// No hit: the general path decides.
    @inlinable
    static var miss: CellHit {
        CellHit(cell: nil, record: nil)
    }

    /// The instance the hit found, copied out of its cell, and the read section
    /// ended; `nil` on a miss (and for a weak instance that is gone). `T` is the
    /// value type of the factory whose registration found the cell: a slot's
    /// cells hold that factory's instances only, its key naming `T`.
    @_alwaysEmitIntoClient @inline(__always)
    package func read<T>(_ type: T.Type) -> T? {
        guard let cell else { return nil }
        // The reference to the instance is taken before the section ends:
        // `cfactory_read_end` is an opaque call, which no retain moves across.
        let value: T? = cell._withUnsafeGuaranteedRef { cell in
            if cell.isWeak { return unsafeDowncast(cell, to: WeakCell<T>.self).value }
            return unsafeDowncast(cell, to: StrongCell<T>.self).value
        }
        ReadSection(record: record.unsafelyUnwrapped).end()
        return value
    }
}

extension FactoryRegistration {
    /// The cached instance's cell when the common case applies (nothing persisted
    /// for the container, no decorator or context override, the definition's own
    /// caching scope, a valid instance linked from the factory's slot), inside a
    /// read section the caller ends by reading it (``CellHit/read(_:)``); lock-free,
    /// and it writes no shared memory. Else ``CellHit/miss``.
    @usableFromInline
    package func hit() -> CellHit {
        let flags = manager.flags.value
        guard
            flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
                && traits.isDisjoint(with: .general) && extras == nil, let scope = scopeReference,
            scope._withUnsafeGuaranteedRef({ $0.keeping }) == .cells,
            let slot = manager.findSlot(key)
        else { return .miss }
        let scopeID = scope._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
        let section = ReadSection.begin()
        // Inside the section: a relink releases the cells it replaces only after
        // waiting for readers (Garbage).
        if let cell = slot._withUnsafeGuaranteedRef({ $0.linkedCell(scopeID: scopeID, ttl: ttl) }) {
            return CellHit(cell: cell, record: section.record)
        }
        section.end()
        return .miss
    }
}

extension Slot {
    /// The valid cell of the definition's instance, for `scopeID` and `ttl`, in the
    /// cells the last cache decision linked; unretained, valid inside the caller's
    /// read section. `nil` before any decision, and for scopes whose instances live
    /// nowhere a container can link (unique, graph, custom strategies).
    @inline(__always)
    func linkedCell(scopeID: ObjectIdentifier, ttl: UInt64) -> Unmanaged<CacheCell>? {
        guard let linked = hitLink.load() else { return nil }
        return linked._withUnsafeGuaranteedRef { $0.validCell(scopeID: scopeID, ttl: ttl, epoch: 0) }
    }
}

extension CellSet {
    /// The unparameterized cell if it is valid for `scopeID`, `ttl` (nanoseconds,
    /// 0 for none) and `epoch`; unretained, valid inside the caller's read section.
    @inline(__always)
    package func validCell(scopeID: ObjectIdentifier, ttl: UInt64, epoch: Int) -> Unmanaged<CacheCell>? {
        guard let cell = unparameterized.load() else { return nil }
        guard cell._withUnsafeGuaranteedRef({ $0.epoch == epoch && $0.isValid(scopeID: scopeID, ttl: ttl) }) else {
            return nil
        }
        return cell
    }

    /// The valid unparameterized instance, or `nil` on a miss. Lock-free, with its
    /// own read section.
    package func foundHit(scopeID: ObjectIdentifier, ttl: UInt64, epoch: Int) -> FoundInstance? {
        let section = ReadSection.begin()
        defer { section.end() }
        return validCell(scopeID: scopeID, ttl: ttl, epoch: epoch)?.takeUnretainedValue().found()
    }
}

extension CacheCell {
    /// Whether the cell is still good for `scopeID` with a time-to-live of `ttl`
    /// nanoseconds (0: forever).
    @inline(__always)
    package func isValid(scopeID: ObjectIdentifier, ttl: UInt64) -> Bool {
        guard self.scopeID == scopeID else { return false }
        return ttl == 0 || Self.now() &- createdAt < ttl
    }
}
