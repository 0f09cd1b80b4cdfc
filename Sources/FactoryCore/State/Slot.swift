/// One factory's state in one container: its persisted options, the
/// instances its container-scoped builds cached, and where its lock-free hit
/// reads.
///
/// Made the first time the factory caches something or persists an option, and
/// kept (emptied by resets, never removed) for the container's lifetime, so the
/// lock-free path can use it without retaining it.
@usableFromInline
package final class Slot: TableEntry, @unchecked Sendable {
    // Sendable because `options` and `hitLink` are atomic, `cells` guards
    // itself (see CellSet), `trackedCells` is only touched with the manager's
    // lock held, and the rest is immutable.

    @usableFromInline package let hash: Int
    @usableFromInline package let name: StaticString
    @usableFromInline package let valueType: Any.Type
    @usableFromInline package let parameterType: Any.Type
    @usableFromInline package let containerType: any AnyObject.Type
    /// The persisted options; `nil` when nothing is persisted.
    let publishedOptions = OwnedAtomicReference<OptionsBox>()
    /// Instances cached for this container (cached, shared and custom scopes).
    @usableFromInline package let cells = CellSet()
    /// The cells a resolution of the factory's definition reads its instance
    /// from, whatever its scope, or `nil` until a resolution decided, under the
    /// manager's lock, where that instance lives (``linkHit(to:_:)``). The hit path
    /// reads here instead of asking the scope, so it is the same code for every strategy.
    @usableFromInline let hitLink = OwnedAtomicReference<CellSet>()
    /// The caches custom scopes (``CacheStrategy``) used for this factory in this
    /// container, so that its resets empty them. Manager lock held.
    @exclusivity(unchecked) package var trackedCells: [TrackedCells] = []

    package init(key: FactoryKey) {
        hash = key.hashBits
        name = key.name
        valueType = key.valueType
        parameterType = key.parameterType
        containerType = key.containerType
    }

    /// Makes the lock-free hit read `cells`; a link it replaces goes to
    /// `garbage`. Manager lock held.
    package func linkHit(to cells: CellSet, _ garbage: inout Garbage) {
        if hitLink.load()?.toOpaque() == Unmanaged.passUnretained(cells).toOpaque() { return }
        garbage.add(hitLink.exchange(cells))
    }

    /// Unlinks the lock-free hit, so the next resolution decides again where the
    /// instance lives; the link goes to `garbage`. Manager lock held.
    package func unlinkHit(_ garbage: inout Garbage) {
        garbage.add(hitLink.exchange(nil))
    }

    package var key: FactoryKey {
        FactoryKey(name: name, valueType: valueType, parameterType: parameterType, containerType: containerType)
    }

    /// The published options, retained; lock-free.
    package func loadOptions() -> OptionsBox? {
        let section = ReadSection.begin()
        defer { section.end() }
        return publishedOptions.load()?.takeUnretainedValue()
    }

    /// The published options object; manager lock held.
    package var persistedOptions: OptionsBox? {
        publishedOptions.load()?.takeUnretainedValue()
    }

    /// The options as published; manager lock held.
    package var options: FactoryOptions? {
        persistedOptions?.value
    }

    /// Publishes `options` (nil when empty); the replaced object goes to `garbage`.
    /// Returns whether options are published now. Manager lock held.
    @discardableResult
    package func setOptions(_ options: consuming FactoryOptions?, _ garbage: inout Garbage) -> Bool {
        var published: OptionsBox?
        if let options, !options.isEmpty { published = OptionsBox(options) }
        let has = published != nil
        garbage.add(publishedOptions.exchange(published))
        return has
    }

    /// Drops every instance cached for this factory in this container, custom
    /// scopes' included, and starts new generations. Manager lock held.
    package func removeAllInstances(_ garbage: inout Garbage) {
        cells.removeAll(&garbage)
        if !trackedCells.isEmpty { forEachTrackedCells(&garbage) { $0.removeAll(&$1) } }
    }

    /// Drops the instances cached under `scopeID`; see ``CellSet/remove(scopeID:_:)``. Manager lock held.
    package func removeInstances(scopeID: ObjectIdentifier, _ garbage: inout Garbage) {
        cells.remove(scopeID: scopeID, &garbage)
        if !trackedCells.isEmpty { forEachTrackedCells(&garbage) { $0.remove(scopeID: scopeID, &$1) } }
    }

    /// Adds each instance cached for this factory in this container, custom
    /// scopes' included, whose factory declared a shutdown to `found`; with
    /// `singletons`, also those its registrations keep (see
    /// ``RegistrationBoxBase/cells``). Manager lock held.
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

    /// Runs `body` on the cells of every custom cache still alive, forgetting the
    /// others. Each live cache is kept in `garbage` until unlocked: the strategy
    /// may drop it meanwhile, and its last release must not run under the lock.
    @inline(never)
    private func forEachTrackedCells(_ garbage: inout Garbage, _ body: (CellSet, inout Garbage) -> Void) {
        var alive: [TrackedCells] = []
        for tracked in trackedCells {
            // One strong load per entry, straight into `garbage`: a temporary
            // reference released here could be the last one.
            guard let owner = tracked.owner else { continue }
            garbage.add(owner)
            body(owner.cells, &garbage)
            alive.append(tracked)
        }
        trackedCells = alive
    }
}
