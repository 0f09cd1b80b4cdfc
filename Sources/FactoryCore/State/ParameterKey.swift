// A parameter's `hash(into:)` and `==` are user code that may resolve from the container whose
// lock guards the cache, so neither runs under it: the hash is taken before locking, keys compare
// by identity, and an equal parameter's key is found by comparing outside the lock (`ParameterLookup`).

/// A per-parameter cache key, equal only to itself, so a dictionary of them runs no user code.
package final class ParameterKey: Hashable {
    let value: AnyHashable  // released after unlocking: its `deinit` is user code
    package let hash: Int

    init(_ value: AnyHashable, hash: Int) {
        self.value = value
        self.hash = hash
    }

    package static func == (lhs: ParameterKey, rhs: ParameterKey) -> Bool { lhs === rhs }

    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// Finds a parameter's key in a per-parameter cache. The parameter's own `hash(into:)` and `==`
/// run here with no lock held; under the lock it only checks the keys it compared are still current.
package struct ParameterLookup {
    let value: AnyHashable
    package let hash: Int
    private var compared: [ParameterKey] = []  // the cache's keys of this hash, in its order
    private var match: ParameterKey?

    /// `nil` when the parameter cannot be a key (``GeneralPath/hashable(_:)``: not `Hashable`,
    /// or unequal to itself like `Double.nan`): built, not cached. Runs `hash(into:)`: no lock held.
    package init?(_ value: AnyHashable?) {
        guard let value else { return nil }
        self.value = value
        hash = value.hashValue
    }

    /// `nil` when the keys of this hash changed: the caller unlocks, runs ``compare(_:)`` and decides again. A new key
    /// goes into `cells` at once, so it is never released under the lock. Locks held; runs no user code.
    func key(in cells: CellSet) -> ParameterKey? {
        let keys = cells.parameterKeys(hash: hash)
        guard keys.count == compared.count, zip(keys, compared).allSatisfy({ $0 === $1 }) else { return nil }
        return match ?? ParameterKey(value, hash: hash)
    }

    /// Runs the parameter's `==`; returns the instance if the candidates carry it. No lock held.
    mutating func compare(_ candidates: ParameterCandidates) -> FoundInstance? {
        compared = candidates.keys
        match = candidates.keys.first { $0.value == value }
        guard let match, let cell = candidates.cell, match === candidates.keys.first else { return nil }
        return cell.found()
    }
}

/// A cache's keys of one hash and, when there was one, its valid instance: an equal parameter is
/// then a hit with no second lock.
package struct ParameterCandidates {
    let keys: [ParameterKey]
    let cell: CacheCell?
}

extension CellSet {
    // Owner's lock held for all of these.
    func parameterKeys(hash: Int) -> [ParameterKey] { parameterIndex[hash] ?? [] }

    func indexParameterKey(_ key: ParameterKey) {
        guard parameterIndex[key.hash]?.contains(where: { $0 === key }) != true else { return }
        parameterIndex[key.hash, default: []].append(key)
    }

    func unindexParameterKeyIfUnused(_ key: ParameterKey, _ garbage: inout Garbage) {
        guard parameterCells[key] == nil, parameterGates[key] == nil,
            var keys = parameterIndex[key.hash], let index = keys.firstIndex(where: { $0 === key })
        else { return }
        garbage.add(keys.remove(at: index))
        parameterIndex[key.hash] = keys.isEmpty ? nil : keys
    }

    /// After entries are replaced wholesale; the old index goes to `garbage`.
    func reindexParameterKeys(_ garbage: inout Garbage) {
        if !parameterIndex.isEmpty { garbage.keep(parameterIndex) }
        parameterIndex = [:]
        for key in parameterCells.keys { indexParameterKey(key) }
        for key in parameterGates.keys { indexParameterKey(key) }
    }
}
