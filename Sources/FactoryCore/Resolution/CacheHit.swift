import CFactoryAtomics

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

    /// Whether the hit found a cell that holds its instance strongly: then
    /// ``readStrong(_:)`` reads it.
    @inlinable
    var isStrong: Bool {
        guard let cell else { return false }
        return cell._withUnsafeGuaranteedRef { !$0.isWeak }
    }

    /// The instance of the strong cell the hit found (see ``isStrong``), copied
    /// out, and the read section ended. `T` is the value type of the factory whose
    /// registration found the cell: a slot's cells hold that factory's instances
    /// only, its key naming `T`. No `T?` on the way: in unspecialized code an
    /// optional of `T` costs a metadata lookup.
    @_alwaysEmitIntoClient @inline(__always) @usableFromInline
    package func readStrong<T>(_ type: T.Type) -> T {
        // The reference to the instance is taken before the section ends:
        // `cfactory_read_end` is an opaque call, which no retain moves across.
        let value = cell.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.storage.assumingMemoryBound(to: T.self).pointee }
        ReadSection(record: record.unsafelyUnwrapped).end()
        return value
    }

    /// Ends the read section of a hit that will not be read.
    @inlinable
    func end() {
        if let record { ReadSection(record: record).end() }
    }

    /// The hit's instance, held (see ``FoundInstance``), and the read section
    /// ended; `nil` on a miss and for a weak instance that is gone.
    func found() -> FoundInstance? {
        defer { end() }
        return cell?._withUnsafeGuaranteedRef { $0.found() }
    }

    /// The instance the hit found, copied out of its cell, and the read section
    /// ended; `nil` on a miss (and for a weak instance that is gone).
    @_alwaysEmitIntoClient @inline(__always)
    package func read<T>(_ type: T.Type) -> T? {
        guard let cell else { return nil }
        let value = cell._withUnsafeGuaranteedRef { $0.read(T.self) }
        ReadSection(record: record.unsafelyUnwrapped).end()
        return value
    }
}

extension FactoryRegistration {
    /// The cached instance's cell when the common case applies (nothing persisted
    /// for the container, no option in the definition beyond its own caching scope
    /// and time to live, a valid instance linked from the factory's slot), inside a
    /// read section the caller ends by reading it (``CellHit/read(_:)``); lock-free,
    /// and it writes no shared memory. Else ``CellHit/miss``.
    @usableFromInline
    package func hit() -> CellHit {
        let flags = manager.flags.value
        guard
            flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
                && !traits.contains(.general), let scope = scopeReference
        else { return .miss }
        return hit(in: scope)
    }

    /// The hit in `scope`, the definition's (the container's flags and the traits checked).
    @inline(__always)
    private func hit(in scope: Unmanaged<Scope>) -> CellHit {
        guard scope._withUnsafeGuaranteedRef({ $0.keeping }) == .cells, let slot = manager.findSlot(key) else {
            return .miss
        }
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

    /// What a synchronous factory's resolution does first: the hit (see ``hit()``),
    /// or, when the definition's closure is all a resolution runs (nothing
    /// persisted or watched, no option in the definition, a scope that caches
    /// nothing), the build entered on the thread's resolution context, with the
    /// parameter at `parameter`: the caller calls the closure and ends the build
    /// with ``endDirectBuild(_:)``. Else nothing: the general path decides.
    @usableFromInline
    package func fastStep(parameter: UnsafeRawPointer?) -> FastStep {
        let flags = manager.flags.value
        // Any option beyond scope and time to live, in the definition (`.general`) or
        // the container (`Flags.options`), sends the resolution down the general
        // path, which applies them all. A decorator, for one, needs the instance's
        // address, and taking it in `resolved()` would give every hit there a stack
        // protector.
        guard
            flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
                && !traits.contains(.general)
        else { return FastStep(hit: .miss, build: nil) }
        if let scope = scopeReference, scope._withUnsafeGuaranteedRef({ $0.keeping }) != .nothing {
            return FastStep(hit: hit(in: scope), build: nil)
        }
        if isolation == .main && !cfactory_is_main_actor() { failMainActor(key) }
        let context = ResolutionContext.currentUnmanaged
        context._withUnsafeGuaranteedRef {
            $0.enter(GeneralPath.frame(self, pointer: parameter), checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
        }
        return FastStep(hit: .miss, build: context)
    }

    /// Ends a build ``fastStep(parameter:)`` entered on `context`: leaves it.
    @usableFromInline
    package func endDirectBuild(_ context: Unmanaged<ResolutionContext>) {
        context._withUnsafeGuaranteedRef { $0.leave() }
    }
}

/// What ``FactoryRegistration/fastStep(parameter:)`` found: a hit, a build to run
/// directly (on the context whose frame it entered), or neither.
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
