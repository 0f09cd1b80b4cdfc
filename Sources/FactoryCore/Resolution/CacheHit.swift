import CFactoryAtomics

// The whole of a cache hit, inlined into and specialized in the caller: the
// container's flags, the factory's slot, the cells it links, the cell. The
// same code for every scope: where each strategy keeps its instances is linked
// from the slot by a miss (``GeneralPath``, ``ScopeStrategy``), so nothing here
// asks the strategy.

extension FactoryRegistration {
    /// Resolves the factory.
    ///
    /// Inlined into the caller so that the common case — nothing persisted for
    /// the container, the definition's own scope — is specialised for `T`: one
    /// atomic load of the container's flags, then either the closure (unique) or
    /// a lock-free cache lookup (cached, shared, singleton). Everything else goes
    /// through the general path (``resolveOffTheFastPath(_:at:)``).
    @_alwaysEmitIntoClient @inline(__always)
    package func resolve(_ parameter: P) -> T {
        if let value = resolveOnTheFastPath(parameter) { return value }
        // A `Factory`'s parameter is `Void`, with no address to record: called
        // directly, not through `withUnsafePointer`'s closure, whose frames an
        // unoptimized build would keep on the stack for every nested level.
        if P.self == Void.self { return resolveOffTheFastPath(parameter, at: nil) }
        return resolveOffTheFastPath(parameter)
    }

    /// The instance when the fast path applies (a cache hit, its decorator run,
    /// or a unique build), else `nil`. A function of its own so that an
    /// unoptimized build does not keep its locals on the stack while the general
    /// path builds (a chain of nested resolutions stacks that frame per level).
    @_alwaysEmitIntoClient @inline(__always)
    func resolveOnTheFastPath(_ parameter: P) -> T? {
        let manager = self.manager
        let flags = manager.flags.value
        if flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
            && traits.isDisjoint(with: .general) && extras?.contexts == nil
        {
            guard let scope = scopeReference else {
                return buildDirectly(parameter, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
            }
            if scope._withUnsafeGuaranteedRef({ $0.keeping }) == .nothing {
                return buildDirectly(parameter, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
            }
            // Locals only: the lookup below takes a closure, which must not copy this value.
            let key = self.key
            let scopeID = scope._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
            let ttl = self.ttl
            // Whatever the strategy: the cells it keeps the definition's instance
            // in are linked from the container's slot (Slot.hit).
            if let hit = manager.findSlot(key)?._withUnsafeGuaranteedRef({ $0.hit(T.self, scopeID: scopeID, ttl: ttl) }) {
                if let decorator = extras?.decorator { decorator(hit, false) }
                return hit
            }
        }
        return nil
    }
}

#if SwiftConcurrency
extension AsyncFactoryRegistration {
    /// The common case, inlined and specialised in the caller, and synchronous so
    /// that nothing is copied into an async frame: nothing persisted, no decorator
    /// or context, the definition's own cache scope, and a lock-free hit.
    @_alwaysEmitIntoClient @inline(__always)
    package func cachedHit() -> T? {
        let manager = self.manager
        let flags = manager.flags.value
        guard
            flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
                && hasScope && !scopeOnParameters && decorator == nil && contexts == nil, let scope = scopeReference
        else { return nil }
        let scopeID = scope._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
        let ttl = self.ttl
        let key = self.key
        // As for synchronous factories: the cells the strategy chose are linked from the slot.
        return manager.findSlot(key)?._withUnsafeGuaranteedRef { $0.hit(T.self, scopeID: scopeID, ttl: ttl) }
    }
}
#endif

extension Slot {
    /// The definition's instance, valid for `scopeID` and `ttl`, from the cells
    /// the last cache decision linked; lock-free, writes no shared memory. A miss
    /// before any decision, and for scopes whose instances live nowhere a
    /// container can link (unique, graph, custom strategies, a registration's
    /// own singleton).
    @_alwaysEmitIntoClient @inline(__always)
    package func hit<T>(_ type: T.Type, scopeID: ObjectIdentifier, ttl: UInt64) -> T? {
        let section = ReadSection.begin()
        defer { section.end() }
        // Inside the section: a relink releases the cells it replaces only after
        // waiting for readers (Garbage).
        guard let linked = hitLink.load() else { return nil }
        return linked._withUnsafeGuaranteedRef { $0.read(T.self, scopeID: scopeID, ttl: ttl, era: 0) }
    }
}

extension CellSet {
    /// The cached instance if it is valid for `scopeID`, `ttl` (nanoseconds, 0 for
    /// none) and singleton `era`; lock-free, writes no shared memory.
    @_alwaysEmitIntoClient @inline(__always)
    package func hit<T>(_ type: T.Type, scopeID: ObjectIdentifier, ttl: UInt64, era: Int) -> T? {
        let section = ReadSection.begin()
        defer { section.end() }
        return read(T.self, scopeID: scopeID, ttl: ttl, era: era)
    }

    /// ``hit(_:scopeID:ttl:era:)`` inside a read section the caller holds.
    @_alwaysEmitIntoClient @inline(__always)
    package func read<T>(_ type: T.Type, scopeID: ObjectIdentifier, ttl: UInt64, era: Int) -> T? {
        guard let cell = unparameterized.load() else { return nil }
        return cell._withUnsafeGuaranteedRef { cell -> T? in
            guard cell.era == era, cell.isValid(scopeID: scopeID, ttl: ttl) else { return nil }
            // Every cell of a set holds the `T` of the set's factory key (the
            // key names the value type); `isWeak` says which of the two classes it is.
            if cell.isWeak { return unsafeDowncast(cell, to: WeakCell<T>.self).value }
            return unsafeDowncast(cell, to: StrongCell<T>.self).value
        }
    }
}

extension CacheCell {
    /// Whether the cell is still good for `scopeID` with a time-to-live of `ttl`
    /// nanoseconds (0: forever).
    @_alwaysEmitIntoClient @inline(__always)
    package func isValid(scopeID: ObjectIdentifier, ttl: UInt64) -> Bool {
        guard self.scopeID == scopeID else { return false }
        return ttl == 0 || Self.now() &- createdAt < ttl
    }
}
