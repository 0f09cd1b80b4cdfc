import CFactoryAtomics

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

    @inlinable
    static var miss: CellHit {
        CellHit(cell: nil, record: nil)
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

    /// Copied out, section ended; `nil` on a miss or for a weak instance that is gone.
    @_alwaysEmitIntoClient @inline(__always)
    package func read<T>(_ type: T.Type) -> T? {
        guard let cell else { return nil }
        let value = cell._withUnsafeGuaranteedRef { $0.read(T.self) }
        ReadSection(record: record.unsafelyUnwrapped).end()
        return value
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
            flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
                && !traits.contains(.general), let scope = scopeReference
        else { return .miss }
        return hit(in: scope)
    }

    /// Flags and traits already checked.
    @inline(__always)
    private func hit(in scope: Unmanaged<Scope>) -> CellHit {
        guard scope._withUnsafeGuaranteedRef({ $0.keeping }) == .cells, let slot = manager.findSlot(key) else {
            return .miss
        }
        let scopeID = scope._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
        let section = ReadSection.begin()
        // Inside the section: a relink releases replaced cells only after waiting for readers.
        if let cell = slot._withUnsafeGuaranteedRef({ $0.linkedCell(scopeID: scopeID, ttl: ttl) }) {
            return CellHit(cell: cell, record: section.record)
        }
        section.end()
        return .miss
    }

    /// A sync resolution's first step: the hit, or, when the definition's closure is all that runs
    /// (nothing persisted or watched, no option, an uncaching scope), the build entered on the
    /// thread's context; the caller runs the closure and calls ``endDirectBuild(_:)``. Else nothing.
    @usableFromInline
    package func fastStep(parameter: UnsafeRawPointer?) -> FastStep {
        let flags = manager.flags.value
        // Any option beyond scope and ttl (`.general`, `Flags.options`) takes the general path,
        // which applies them all: a decorator, say, needs the instance's address, and taking it in
        // `resolved()` would give every hit there a stack protector.
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
    /// Unretained, valid inside the caller's read section; the definition's instance, when the slot links cells that
    /// hold it. `nil` before any decision and for scopes whose instances live nowhere a container can link (unique,
    /// graph, custom strategies).
    @inline(__always)
    func linkedCell(scopeID: ObjectIdentifier, ttl: UInt64) -> Unmanaged<CacheCell>? {
        guard let linked = hitLink.load() else { return nil }
        return linked._withUnsafeGuaranteedRef {
            $0.admission != .typeRegistrations ? $0.validCell(scopeID: scopeID, ttl: ttl, epoch: 0) : nil
        }
    }
}

extension ContainerManager {
    /// The general path's lock-free hit, every kind's: in the strategy's prepared cells, else in the cells the slot
    /// links when they hold what `options`' closure builds. No lock held; `nil` leaves it to the decision.
    func hit(_ key: FactoryKey, _ options: ResolvedOptions, prepared: CellSet?) -> FoundInstance? {
        guard let scope = options.scope else { return nil }
        let scopeID = ObjectIdentifier(scope)
        // Section first: linked cells may be a singleton storage's, freed only after waiting for readers.
        let section = ReadSection.begin()
        defer { section.end() }
        guard let cells = prepared.map(Unmanaged.passUnretained) ?? findSlot(key)?._withUnsafeGuaranteedRef({ $0.hitLink.load() })
        else { return nil }
        return cells._withUnsafeGuaranteedRef {
            $0.admits(options.box) ? $0.validCell(scopeID: scopeID, ttl: options.ttl, epoch: 0)?.takeUnretainedValue().found() : nil
        }
    }
}
