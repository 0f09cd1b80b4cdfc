import FactoryScopes

// What tests read of a container's and a singleton storage's insides, to check
// that nothing is left behind. Test-only, so it is here rather than in FactoryCore.

extension ContainerManager {
    /// Whether this container holds a finished cached instance of `key` (any scope
    /// but singleton).
    package func hasCachedInstance(_ key: FactoryKey) -> Bool {
        lock.withLock { findSlot(key).map { !$0.takeUnretainedValue().cells.isEmpty } ?? false }
    }

    /// How many per-parameter instances and builds `key` holds in this container
    /// (finished or running).
    package func parameterEntryCount(_ key: FactoryKey) -> Int {
        lock.withLock {
            findSlot(key).map {
                let cells = $0.takeUnretainedValue().cells
                return cells.parameterEntries.values.reduce(0) { $0 + ($1.cell == nil ? 0 : 1) + ($1.gate == nil ? 0 : 1) }
            } ?? 0
        }
    }

    /// Whether `key`'s index of per-parameter keys by hash holds exactly the keys
    /// its instances and builds use, each once under its own hash.
    package func parameterIndexMatchesEntries(_ key: FactoryKey) -> Bool {
        lock.withLock {
            guard let cells = findSlot(key)?.takeUnretainedValue().cells else { return true }
            let indexed = cells.parameterIndex.flatMap { hash, keys in keys.map { (hash, $0) } }
            let used = Set(cells.parameterEntries.keys.map(ObjectIdentifier.init))
            return indexed.allSatisfy { $0.0 == $0.1.hash } && indexed.count == used.count
                && Set(indexed.map { ObjectIdentifier($0.1) }) == used
        }
    }

    /// Whether any factory of this container has persisted options (a
    /// registration, a context override, a run-time modifier).
    package var hasPersistedOptions: Bool {
        lock.withLock { state.optionsCount > 0 }
    }
}

extension GlobalStorage {
    /// Whether a singleton of `key` is stored (built from the definition or shared), in any scope.
    package func contains(_ key: FactoryKey) -> Bool {
        lock.withLock {
            scopes.values.contains { scope in
                scope.factories[key].map { !$0.definition.isEmpty || !$0.shared.isEmpty } ?? false
            }
        }
    }
}
