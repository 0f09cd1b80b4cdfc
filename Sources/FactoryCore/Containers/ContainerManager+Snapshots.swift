// `push()`/`pop()`; FactoryTesting's save and restore builds on these snapshots.

extension ContainerManager {
    package struct Snapshot {
        package var slots: [ObjectIdentifier: SlotSnapshot] = [:]
        package var autoRegistered = false
    }

    package struct SlotSnapshot {
        package var options: FactoryOptions?
        package var registration: RegistrationBoxBase?
        package var cell: CacheCell?
        package var parameterCells: [ParameterKey: CacheCell]
    }

    /// Saves registrations, context overrides, persisted modifiers and this container's scope caches
    /// (not singletons) for ``pop()``. Pushes nest; the snapshot is atomic with every other change here
    /// and records whether `autoRegister()` has run: a `pop()` to before it ran makes it run again on
    /// next use, so its registrations come back.
    public func push() {
        lock.withLock {
            var snapshot = Snapshot()
            if case .done = state.autoRegister { snapshot.autoRegistered = true }
            snapshot.slots = slotSnapshots()
            state.stack.append(snapshot)
        }
    }

    /// Restores what the matching ``push()`` saved, atomically with every other change here; does nothing
    /// when nothing was pushed. Instances cached since the push are released after unlocking.
    public func pop() {
        var garbage = Garbage()
        lock.withLock {
            guard let snapshot = state.stack.popLast() else { return }
            for slot in table.all() {
                let saved = snapshot.slots[ObjectIdentifier(slot)]
                setOptions(saved?.options, of: slot, &garbage)
                setRegistration(saved?.registration, of: slot, &garbage)
                restoreCells(of: slot, from: saved, &garbage)
            }
            garbage.keep(snapshot)
            if !snapshot.autoRegistered, case .done = state.autoRegister {
                state.autoRegister = .pending
            }
            publishFlags()
        }
        garbage.release()
    }

    package func setUnmockedObserver(_ observer: (@Sendable (FactoryKey) -> Void)?) {  // strict mode on, or off with `nil`
        replace(\.unmockedObserver, with: observer)
    }

    /// Lock held.
    package func slotSnapshots() -> [ObjectIdentifier: SlotSnapshot] {
        var slots: [ObjectIdentifier: SlotSnapshot] = [:]
        for slot in table.all() {
            slots[ObjectIdentifier(slot)] = SlotSnapshot(
                options: slot.options, registration: slot.registration, cell: slot.cells.cell,
                parameterCells: slot.cells.parameterCells)
        }
        return slots
    }

    /// Starts a new generation; custom caches (``CacheStrategy``) are emptied, not restored. Lock held.
    package func restoreCells(of slot: Slot, from snapshot: SlotSnapshot?, _ garbage: inout Garbage) {
        slot.removeAllInstances(&garbage)
        guard let snapshot else { return }
        slot.cells.restore(snapshot.cell, parameterCells: snapshot.parameterCells, &garbage)
    }
}
