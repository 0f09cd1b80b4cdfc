/// The instances one factory keeps in one place (a container, a singleton
/// storage or a registration): one without a parameter, and one per parameter
/// for `scopeOnParameters`.
///
/// The unparameterized instance is read without a lock (``hit(_:scopeID:ttl:era:)``);
/// everything else is guarded by the lock of the owner (the container's manager,
/// or the singleton storage), which every method below the hit path expects held.
@usableFromInline
package final class CellSet: @unchecked Sendable {
    // Sendable because `unparameterized` is atomic and the other properties are only touched
    // with the owner's lock held. That lock is also what makes their accesses
    // exclusive, hence `@exclusivity(unchecked)`: no runtime access tracking on
    // every register and reset.

    /// The unparameterized instance.
    @usableFromInline let unparameterized = OwnedAtomicReference<CacheCell>()
    /// Bumped by every removal, so a build that started before it does not store
    /// what it built (the closure it ran may have been replaced).
    @exclusivity(unchecked) package var generation = 0
    /// The build of the unparameterized instance under way, if any.
    @exclusivity(unchecked) package var gate = BuildGate()
    /// Instances per parameter (`scopeOnParameters`).
    @exclusivity(unchecked) package var parameterCells: [ParameterKey: CacheCell] = [:]
    /// Builds per parameter under way.
    @exclusivity(unchecked) package var parameterGates: [ParameterKey: BuildGate] = [:]
    /// The keys the two use, by the parameter's hash: where a parameter's key is
    /// found (``ParameterLookup``).
    @exclusivity(unchecked) package var parameterIndex: [Int: [ParameterKey]] = [:]

    package init() {}

    /// The unparameterized cell; owner's lock held.
    package var cell: CacheCell? {
        unparameterized.load()?.takeUnretainedValue()
    }

    /// Replaces the unparameterized cell; the old one goes to `garbage`. Owner's lock held.
    package func setCell(_ cell: CacheCell?, _ garbage: inout Garbage) {
        garbage.add(unparameterized.exchange(cell))
    }

    /// Drops every instance and starts a new generation. Owner's lock held.
    package func removeAll(_ garbage: inout Garbage) {
        generation &+= 1
        setCell(nil, &garbage)
        replaceParameterCells(with: [:], &garbage)
    }

    /// Replaces the per-parameter instances; the old entries, keys included, go to
    /// `garbage`: a key may hold the last reference to a user's parameter value.
    /// Owner's lock held.
    package func replaceParameterCells(with cells: [ParameterKey: CacheCell], _ garbage: inout Garbage) {
        if parameterCells.isEmpty && cells.isEmpty { return }
        if !parameterCells.isEmpty { garbage.keep(parameterCells) }
        parameterCells = cells
        reindexParameterKeys(&garbage)
    }

    /// Removes the instance cached for `parameter`; the entry, key included, goes
    /// to `garbage`. Owner's lock held.
    package func removeParameterCell(_ parameter: ParameterKey, _ garbage: inout Garbage) {
        guard let index = parameterCells.index(forKey: parameter) else { return }
        garbage.keep(parameterCells.remove(at: index))
        unindexParameterKeyIfUnused(parameter, &garbage)
    }

    /// Sets or clears the build under way for `parameter`; a cleared gate is
    /// returned, with its waiters. Owner's lock held.
    @discardableResult
    func setParameterGate(_ gate: BuildGate?, for parameter: ParameterKey, _ garbage: inout Garbage) -> BuildGate? {
        guard let gate else {
            let cleared = parameterGates.removeValue(forKey: parameter)
            unindexParameterKeyIfUnused(parameter, &garbage)
            return cleared
        }
        parameterGates[parameter] = gate
        indexParameterKey(parameter)
        return nil
    }

    /// Drops the instances cached under `scopeID`, and makes a build of that
    /// scope under way keep its instance to itself. Owner's lock held.
    package func remove(scopeID: ObjectIdentifier, _ garbage: inout Garbage) {
        var removed = gate.scopeID == scopeID || parameterGates.values.contains { $0.scopeID == scopeID }
        if let current = cell, current.scopeID == scopeID {
            setCell(nil, &garbage)
            removed = true
        }
        if parameterCells.values.contains(where: { $0.scopeID == scopeID }) {
            replaceParameterCells(with: parameterCells.filter { $0.value.scopeID != scopeID }, &garbage)
            removed = true
        }
        if removed { generation &+= 1 }
    }

    /// Adds each instance cached here whose factory declared a shutdown to
    /// `found`. Owner's lock held.
    package func collectShutdowns(into found: inout [ShutdownItem]) {
        if let cell, let record = cell.shutdown { found.append(ShutdownItem(cell: cell, record: record)) }
        for cell in parameterCells.values {
            if let record = cell.shutdown { found.append(ShutdownItem(cell: cell, record: record)) }
        }
    }

    /// Whether anything is cached (finished builds only). Owner's lock held.
    package var isEmpty: Bool {
        cell == nil && parameterCells.isEmpty
    }
}
