// The keys of per-parameter caches (`scopeOnParameters`). A parameter's
// `hash(into:)` and `==` are user code, which may resolve from the very container
// whose lock guards the cache: neither may run under that lock. So the hash is
// taken once, before locking; keys compare by identity; and which key an equal
// parameter maps to is found by comparing it, outside the lock, with the keys of
// the same hash that the cache held (`ParameterLookup`).

/// A parameter value as the key of a per-parameter cache entry. Its hash is the
/// parameter's, taken before any lock; two keys are equal only when they are
/// the same key, so a dictionary of them runs no user code.
package final class ParameterKey: Hashable {
    /// The parameter: held until the entry and every lookup that saw it are gone,
    /// and released after unlocking (its `deinit` is user code).
    let value: AnyHashable
    package let hash: Int

    init(_ value: AnyHashable, hash: Int) {
        self.value = value
        self.hash = hash
    }

    package static func == (lhs: ParameterKey, rhs: ParameterKey) -> Bool {
        lhs === rhs
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// Finds, for one resolution's parameter, the key of its entry in a
/// per-parameter cache. Everything that runs the parameter's own `hash(into:)`
/// or `==` happens here, with no lock held; under the lock the lookup only
/// checks that the keys it compared are still the ones of its hash.
package struct ParameterLookup {
    let value: AnyHashable
    package let hash: Int
    /// The cache's keys of this hash that were compared, in the cache's order.
    private var compared: [ParameterKey] = []
    /// The one of them equal to the parameter, if any.
    private var match: ParameterKey?

    /// The lookup of a parameter already made a cache key (``GeneralPath/hashable(_:)``),
    /// or `nil` when it cannot be one: not `Hashable`, or not equal to itself
    /// (`Double.nan`), which would never be found again, so its instance is built
    /// but not cached. Runs the parameter's `hash(into:)`: no lock held.
    package init?(_ value: AnyHashable?) {
        guard let value else { return nil }
        self.value = value
        hash = value.hashValue
    }

    /// The key of the parameter's entry in `cells`, or `nil` when the cache's
    /// keys of this hash are not the ones compared: the caller unlocks, compares
    /// them (``compare(_:_:)``) and decides again. A parameter equal to none of
    /// them gets a new key, which the caller's build puts in `cells` at once
    /// (so it is never released under the lock). Locks held; runs no user code.
    func key(in cells: CellSet) -> ParameterKey? {
        let keys = cells.parameterKeys(hash: hash)
        guard keys.count == compared.count, zip(keys, compared).allSatisfy({ $0 === $1 }) else { return nil }
        return match ?? ParameterKey(value, hash: hash)
    }

    /// Compares the parameter with the cache's keys of its hash, with the
    /// parameter's own `==`, and returns the instance cached for the one it
    /// equals, if the candidates carry it. No lock held.
    mutating func compare(_ candidates: ParameterCandidates) -> FoundInstance? {
        compared = candidates.keys
        match = candidates.keys.first { $0.value == value }
        guard let match, let cell = candidates.cell, match === candidates.keys.first else { return nil }
        return cell.found()
    }
}

/// The keys of one hash that a per-parameter cache held when a resolution asked
/// for its parameter's key, and, when there was just one, its instance if it
/// was valid then: an equal parameter is then a hit, with no second lock.
package struct ParameterCandidates {
    let keys: [ParameterKey]
    let cell: CacheCell?
}

extension CellSet {
    /// The keys of per-parameter entries (a cached instance or a build under way)
    /// whose parameter hashes to `hash`. Owner's lock held.
    func parameterKeys(hash: Int) -> [ParameterKey] {
        parameterIndex[hash] ?? []
    }

    /// Records `key`, which an entry now uses, in the index of keys by hash.
    /// Owner's lock held.
    func indexParameterKey(_ key: ParameterKey) {
        guard parameterIndex[key.hash]?.contains(where: { $0 === key }) != true else { return }
        parameterIndex[key.hash, default: []].append(key)
    }

    /// Takes `key` out of the index once no entry uses it; the index's reference
    /// goes to `garbage`. Owner's lock held.
    func unindexParameterKeyIfUnused(_ key: ParameterKey, _ garbage: inout Garbage) {
        guard parameterCells[key] == nil, parameterGates[key] == nil,
            var keys = parameterIndex[key.hash], let index = keys.firstIndex(where: { $0 === key })
        else { return }
        garbage.add(keys.remove(at: index))
        parameterIndex[key.hash] = keys.isEmpty ? nil : keys
    }

    /// Builds the index again from the entries, after they were replaced
    /// wholesale; the old index goes to `garbage`. Owner's lock held.
    func reindexParameterKeys(_ garbage: inout Garbage) {
        if !parameterIndex.isEmpty { garbage.keep(parameterIndex) }
        parameterIndex = [:]
        for key in parameterCells.keys { indexParameterKey(key) }
        for key in parameterGates.keys { indexParameterKey(key) }
    }
}
