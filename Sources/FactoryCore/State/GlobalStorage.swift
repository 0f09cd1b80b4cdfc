/// Instances kept beyond one container by process-wide scopes (FactoryScopes' singletons): the process's storage, or a
/// test's under FactoryTesting's container traits. Per scope and factory, two places: the instance built from the
/// definition, and the one the factory's registrations that describe the container type share. Which place a
/// resolution uses is the scope's rule; keeping them, resetting them and telling them about registrations is this.
///
/// Lock order: ``lock`` after the manager's lock when both are needed, never the other way round.
@usableFromInline
package final class GlobalStorage: @unchecked Sendable {
    // Sendable: `scopes` is only touched under `lock`.

    package let lock = FactoryLock(owner: GlobalStorage.self)
    /// By scope identity; entries are never removed (resets empty their cells), so a slot's link into them stays valid.
    @exclusivity(unchecked) package var scopes: [ObjectIdentifier: ScopeCells] = [:]
    /// Set once `scopes` has an entry: until then a `register` or reset has nothing to tell it, and takes no lock.
    private let used = AtomicWord()

    package init() {}

    package static let process = GlobalStorage()

    /// One process-wide scope's instances in one storage.
    package final class ScopeCells {
        /// Bumped by each reset of this scope here: what a registration of one container keeps with itself
        /// (``RegistrationBoxBase/cells``) in an older era is stale.
        package let era = AtomicWord(1)
        package var factories: [FactoryKey: Entry] = [:]
    }

    package struct Entry {
        package let definition = CellSet(admitting: .definition)
        package let shared = CellSet(admitting: .typeRegistrations)
    }

    /// `key`'s places for `scope`, made on first use, and the scope's era. Takes ``lock``.
    package func entry(_ scope: Scope, _ key: FactoryKey) -> (entry: Entry, era: AtomicWord) {
        lock.withLock {
            let cells = scopes[ObjectIdentifier(scope)] ?? ScopeCells()
            scopes[ObjectIdentifier(scope)] = cells
            if let entry = cells.factories[key] { return (entry, cells.era) }
            let entry = Entry()
            cells.factories[key] = entry
            used.store(1)
            return (entry, cells.era)
        }
    }

    /// Drops `scope`'s instances (every scope's when `nil`), collecting those with a shutdown, and starts a new era.
    package func removeAll(scope: Scope?, collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage) {
        lock.withLock {
            for (id, cells) in scopes where scope.map({ ObjectIdentifier($0) == id }) ?? true {
                cells.era.add(1)
                for entry in cells.factories.values {
                    entry.definition.collectShutdowns(into: &found)
                    entry.shared.collectShutdowns(into: &found)
                    entry.definition.removeAll(&garbage)
                    entry.shared.removeAll(&garbage)
                }
            }
        }
    }

    /// ``removeAll(scope:collectingShutdowns:_:)`` without shutdowns; what it drops is released after unlocking.
    package func resetAll(scope: Scope? = nil) {
        var garbage = Garbage()
        var found: [ShutdownItem] = []
        removeAll(scope: scope, collectingShutdowns: &found, &garbage)
        garbage.release()
    }

    /// A `register` on one container replaced `key`'s definition there: the instance its registrations share goes,
    /// as in Factory. Manager's lock held.
    func registered(_ key: FactoryKey, _ garbage: inout Garbage) {
        guard used.value != 0 else { return }
        lock.withLock {
            for cells in scopes.values { cells.factories[key]?.shared.removeAll(&garbage) }
        }
    }

    /// The factory's `reset(.scope)`: every instance it has here goes. Manager's lock held, if any.
    func reset(_ key: FactoryKey, _ garbage: inout Garbage) {
        guard used.value != 0 else { return }
        lock.withLock {
            for cells in scopes.values {
                guard let entry = cells.factories[key] else { continue }
                entry.definition.removeAll(&garbage)
                entry.shared.removeAll(&garbage)
            }
        }
    }
}
