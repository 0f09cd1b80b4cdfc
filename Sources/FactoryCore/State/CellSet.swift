/// One factory's instances in one place (container, singleton storage or registration): one
/// without a parameter, and one per parameter for `scopeOnParameters`. The unparameterized one is
/// read lock-free (``validCell(scopeID:ttl:epoch:)``); the rest is guarded by the owner's lock
/// (manager or singleton storage), which every method here expects held.
@usableFromInline
package final class CellSet: @unchecked Sendable {
    // Sendable: `unparameterized` is atomic, the rest only touched under the owner's lock, which
    // also makes accesses exclusive, hence `@exclusivity(unchecked)` (no runtime tracking cost).

    @usableFromInline let unparameterized = OwnedAtomicReference<CacheCell>()
    /// Bumped by every removal, so an earlier build (whose closure may have been replaced) does not store.
    @exclusivity(unchecked) package var generation = 0
    @exclusivity(unchecked) package var gate = BuildGate()
    @exclusivity(unchecked) package var parameterCells: [ParameterKey: CacheCell] = [:]
    @exclusivity(unchecked) package var parameterGates: [ParameterKey: BuildGate] = [:]
    @exclusivity(unchecked) package var parameterIndex: [Int: [ParameterKey]] = [:]  // their keys, by hash

    package init() {}

    package var cell: CacheCell? { unparameterized.load()?.takeUnretainedValue() }

    package func setCell(_ cell: CacheCell?, _ garbage: inout Garbage) {
        garbage.add(unparameterized.exchange(cell))
    }

    package func removeAll(_ garbage: inout Garbage) {  // starts a new generation
        generation &+= 1
        setCell(nil, &garbage)
        replaceParameterCells(with: [:], &garbage)
    }

    /// Old entries, keys included, go to `garbage`: a key may hold the last reference to a user's value.
    package func replaceParameterCells(with cells: [ParameterKey: CacheCell], _ garbage: inout Garbage) {
        if parameterCells.isEmpty && cells.isEmpty { return }
        if !parameterCells.isEmpty { garbage.keep(parameterCells) }
        parameterCells = cells
        reindexParameterKeys(&garbage)
    }

    package func removeParameterCell(_ parameter: ParameterKey, _ garbage: inout Garbage) {
        guard let index = parameterCells.index(forKey: parameter) else { return }
        garbage.keep(parameterCells.remove(at: index))
        unindexParameterKeyIfUnused(parameter, &garbage)
    }

    /// `nil` clears it and returns the cleared gate, with its waiters.
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

    /// Also makes a build of that scope under way keep its instance to itself.
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

    package func collectShutdowns(into found: inout [ShutdownItem]) {
        if let cell, let record = cell.shutdown { found.append(ShutdownItem(cell: cell, record: record)) }
        for cell in parameterCells.values {
            if let record = cell.shutdown { found.append(ShutdownItem(cell: cell, record: record)) }
        }
    }

    package var isEmpty: Bool { cell == nil && parameterCells.isEmpty }  // finished builds only
}
