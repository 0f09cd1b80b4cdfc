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
                garbage.add(slot.publishedRegistration.exchange(snapshot?.registration))
                slot.unlinkHit(&garbage)  // the hit may link cells only the registration's closure fills
                restoreCells(of: slot, from: snapshot, &garbage)
            }
            state.optionsCount = table.all().filter(\.isPersisted).count
            publishDecorator(&garbage)
            publishFlags()
        }
        garbage.release()
    }
}

extension GlobalStorage {
    /// The instances of a storage at one moment, for FactoryTesting's snapshots: per scope, its era and each
    /// factory's unparameterized instances.
    struct Saved {
        let scopes: [ObjectIdentifier: (era: Int, cells: [FactoryKey: (definition: CacheCell?, shared: CacheCell?)])]
    }

    /// Saves every unparameterized instance of every process-wide scope.
    func save() -> Saved {
        lock.withLock {
            Saved(
                scopes: scopes.mapValues { scope in
                    (scope.era.value, scope.factories.mapValues { ($0.definition.cell, $0.shared.cell) })
                })
        }
    }

    /// Puts back what ``save()`` saved; instances built since are released after unlocking.
    func restore(_ saved: Saved) {
        var garbage = Garbage()
        lock.withLock {
            for (id, scope) in scopes {
                let before = saved.scopes[id]
                for (key, entry) in scope.factories {
                    let cells = before?.cells[key]
                    entry.definition.removeAll(&garbage)
                    entry.shared.removeAll(&garbage)
                    entry.definition.setCell(cells?.definition, &garbage)
                    entry.shared.setCell(cells?.shared, &garbage)
                }
                if scope.era.value != before?.era { scope.era.add(1) }
            }
        }
        garbage.release()
    }

    /// Drops the instances of factories of `containerTypes` that were built or
    /// replaced since `saved`, leaving every other one alone.
    func dropChanged(since saved: Saved, containerTypes: Set<ObjectIdentifier>) {
        var garbage = Garbage()
        lock.withLock {
            for (id, scope) in scopes {
                for (key, entry) in scope.factories where containerTypes.contains(ObjectIdentifier(key.containerType)) {
                    let before = saved.scopes[id]?.cells[key]
                    if entry.definition.cell !== before?.definition { entry.definition.removeAll(&garbage) }
                    if entry.shared.cell !== before?.shared { entry.shared.removeAll(&garbage) }
                }
            }
        }
        garbage.release()
    }
}
