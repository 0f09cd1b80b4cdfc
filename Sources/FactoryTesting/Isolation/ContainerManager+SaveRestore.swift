import FactoryCore

// The whole-container save and restore that FactoryTesting's traits and helpers
// (ContainerSnapshot) use to give each test its containers and singletons as it
// found them. It lives here, not in FactoryCore, so that a tool linking the core
// alone carries none of it; it works on the core's own snapshots and storage.

extension ContainerManager {
    /// Everything a test can change in this container: options, the push stack,
    /// and every factory's persisted options and cached instances.
    struct SavedState {
        let state: State
        let slots: [ObjectIdentifier: SlotSnapshot]
    }

    /// Saves everything; see ``SavedState``.
    func save() -> SavedState {
        lock.withLock {
            SavedState(state: state, slots: slotSnapshots())
        }
    }

    /// Puts back what ``save()`` saved, atomically; what it replaces is released after unlocking.
    func restore(_ saved: SavedState) {
        var garbage = Garbage()
        lock.withLock {
            let autoRegister = state.autoRegister
            // The replaced state holds the logger, decorator and observer closures.
            garbage.keep(state)
            state = saved.state
            if case .running = saved.state.autoRegister { state.autoRegister = autoRegister }
            for slot in table.all() {
                let snapshot = saved.slots[ObjectIdentifier(slot)]
                slot.setOptions(snapshot?.options, &garbage)
                restoreCells(of: slot, from: snapshot, &garbage)
            }
            state.optionsCount = table.all().filter { $0.persistedOptions != nil }.count
            publishDecorator(&garbage)
            publishFlags()
        }
        garbage.release()
    }
}

extension GlobalStorage {
    /// The instances of a storage at one moment, for FactoryTesting's snapshots.
    struct Saved {
        let cells: [ObjectIdentifier: (definition: CacheCell?, shared: CacheCell?)]
        let era: Int
    }

    /// Saves every unparameterized singleton.
    func save() -> Saved {
        lock.withLock {
            var cells: [ObjectIdentifier: (definition: CacheCell?, shared: CacheCell?)] = [:]
            for slot in singletons.table.all() { cells[ObjectIdentifier(slot)] = (slot.definition.cell, slot.shared.cell) }
            return Saved(cells: cells, era: singletons.era.value)
        }
    }

    /// Puts back what ``save()`` saved; singletons built since are released after unlocking.
    func restore(_ saved: Saved) {
        var garbage = Garbage()
        lock.withLock {
            for slot in singletons.table.all() {
                let cells = saved.cells[ObjectIdentifier(slot)]
                slot.definition.removeAll(&garbage)
                slot.shared.removeAll(&garbage)
                slot.definition.setCell(cells?.definition, &garbage)
                slot.shared.setCell(cells?.shared, &garbage)
            }
            if singletons.era.value != saved.era { singletons.era.add(1) }
        }
        garbage.release()
    }

    /// Drops the singletons of factories of `containerTypes` that were built or
    /// replaced since `saved`, leaving every other singleton alone.
    func dropChanged(since saved: Saved, containerTypes: Set<ObjectIdentifier>) {
        var garbage = Garbage()
        lock.withLock {
            for slot in singletons.table.all() where containerTypes.contains(ObjectIdentifier(slot.containerType)) {
                let before = saved.cells[ObjectIdentifier(slot)]
                if slot.definition.cell !== before?.definition { slot.definition.removeAll(&garbage) }
                if slot.shared.cell !== before?.shared { slot.shared.removeAll(&garbage) }
            }
        }
        garbage.release()
    }
}
