/// One factory's state in one container: persisted options, container-scoped instances, and where its lock-free hit
/// reads. Never removed while the container lives (resets empty it), so the lock-free path uses it unretained.
@usableFromInline
package final class Slot: TableEntry, @unchecked Sendable {
    // Sendable: `publishedOptions` and `hitLink` are atomic, `cells` guards itself (CellSet),
    // `trackedCells` is only touched under the manager's lock, the rest is immutable.

    @usableFromInline package let hash: Int
    @usableFromInline package let name: StaticString
    @usableFromInline package let valueType: Any.Type
    @usableFromInline package let parameterType: Any.Type
    @usableFromInline package let containerType: any AnyObject.Type
    let publishedOptions = OwnedAtomicReference<OptionsBox>()
    @usableFromInline package let cells = CellSet()
    /// Where the definition's instance lives, whatever its scope; `nil` until a miss decided it
    /// under the manager's lock (``linkHit(to:_:)``). The hit reads here, the same code for every strategy.
    @usableFromInline let hitLink = OwnedAtomicReference<CellSet>()
    @exclusivity(unchecked) package var trackedCells: [TrackedCells] = []  // custom caches used here, reset with it

    package init(key: FactoryKey) {
        hash = key.hashBits
        name = key.name
        valueType = key.valueType
        parameterType = key.parameterType
        containerType = key.containerType
    }

    // Manager lock held for the methods below but `loadOptions()`.
    package func linkHit(to cells: CellSet, _ garbage: inout Garbage) {
        if hitLink.load()?.toOpaque() == Unmanaged.passUnretained(cells).toOpaque() { return }
        garbage.add(hitLink.exchange(cells))
    }

    package var key: FactoryKey {
        FactoryKey(name: name, valueType: valueType, parameterType: parameterType, containerType: containerType)
    }

    package func loadOptions() -> OptionsBox? {  // retained; lock-free
        let section = ReadSection.begin()
        defer { section.end() }
        return publishedOptions.load()?.takeUnretainedValue()
    }

    package var persistedOptions: OptionsBox? { publishedOptions.load()?.takeUnretainedValue() }

    package var options: FactoryOptions? { persistedOptions?.value }

    /// Empty options publish `nil`; returns whether options are published now.
    @discardableResult
    package func setOptions(_ options: consuming FactoryOptions?, _ garbage: inout Garbage) -> Bool {
        var published: OptionsBox?
        if let options, !options.isEmpty { published = OptionsBox(options) }
        let has = published != nil
        garbage.add(publishedOptions.exchange(published))
        return has
    }

    package func removeAllInstances(_ garbage: inout Garbage) {
        cells.removeAll(&garbage)
        if !trackedCells.isEmpty { forEachTrackedCells(&garbage) { $0.removeAll(&$1) } }
    }

    package func removeInstances(scopeID: ObjectIdentifier, _ garbage: inout Garbage) {
        cells.remove(scopeID: scopeID, &garbage)
        if !trackedCells.isEmpty { forEachTrackedCells(&garbage) { $0.remove(scopeID: scopeID, &$1) } }
    }

    /// With `singletons`, also those its registrations keep (``RegistrationBoxBase/cells``).
    package func collectShutdowns(into found: inout [ShutdownItem], singletons: Bool, _ garbage: inout Garbage) {
        cells.collectShutdowns(into: &found)
        if !trackedCells.isEmpty { forEachTrackedCells(&garbage) { cells, _ in cells.collectShutdowns(into: &found) } }
        guard singletons, let options else { return }
        let boxes = [options.registration].compactMap { $0 } + options.contexts.map(\.box)
        for box in boxes {
            guard let cells = box.cells else { continue }
            cells.collectShutdowns(into: &found)
            cells.removeAll(&garbage)
        }
    }

    /// Forgets dead caches. Each live one stays in `garbage` until unlocked: the strategy may drop
    /// it meanwhile, and its last release must not run under the lock.
    @inline(never)
    private func forEachTrackedCells(_ garbage: inout Garbage, _ body: (CellSet, inout Garbage) -> Void) {
        var alive: [TrackedCells] = []
        for tracked in trackedCells {
            // Straight into `garbage`: a temporary released here could be the last reference.
            guard let owner = tracked.owner else { continue }
            garbage.add(owner)
            body(owner.cells, &garbage)
            alive.append(tracked)
        }
        trackedCells = alive
    }
}
