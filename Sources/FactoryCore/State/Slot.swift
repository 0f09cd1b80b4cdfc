import CFactoryAtomics

/// One factory's state in one container: persisted options, container-scoped instances, and where its lock-free hit
/// reads. Never removed while the container lives (resets empty it), so the lock-free path uses it unretained.
@usableFromInline
package final class Slot: @unchecked Sendable {
    // Sendable: `publishedOptions` and `hitLink` are atomic, `cells` guards itself (CellSet),
    // `trackedCells` is only touched under the manager's lock, the rest is immutable.

    @usableFromInline package let hash: Int
    @usableFromInline package let name: StaticString
    @usableFromInline package let valueType: Any.Type
    @usableFromInline package let parameterType: Any.Type
    @usableFromInline package let containerType: any AnyObject.Type
    let publishedOptions = OwnedAtomicReference<OptionsBox>()
    /// The closure `register` gave, kept apart from the options: registering publishes this one reference.
    package let publishedRegistration = OwnedAtomicReference<RegistrationBoxBase>()
    /// The container's own cells for this factory (`.cached`, `.shared`).
    @usableFromInline package let cells = CellSet(admitting: .anyClosure)
    /// The cells the last locked decision placed this factory's instance in, when the hit may read them there; which
    /// closures they serve is theirs to say (``CellSet/admits(_:)``). Written under the manager's lock.
    @usableFromInline let hitLink = OwnedAtomicReference<CellSet>()
    /// A custom strategy's caches this factory used here, emptied with it; weak, as the strategy owns them.
    @exclusivity(unchecked) var trackedCells: [TrackedCells] = []

    init(key: FactoryKey) {
        hash = key.hashBits
        name = key.name
        valueType = key.valueType
        parameterType = key.parameterType
        containerType = key.containerType
    }

    package var key: FactoryKey {
        FactoryKey(name: name, valueType: valueType, parameterType: parameterType, containerType: containerType)
    }

    // Manager lock held for the methods below but `loadPersisted()`.

    package var persistedOptions: OptionsBox? { publishedOptions.load()?.takeUnretainedValue() }

    package var options: FactoryOptions? { persistedOptions?.value }

    package var registration: RegistrationBoxBase? { publishedRegistration.load()?.takeUnretainedValue() }

    /// Whether anything is persisted here, which the container counts for ``ContainerManager/Flag/options``.
    package var isPersisted: Bool { publishedOptions.load() != nil || publishedRegistration.load() != nil }

    /// Both, retained; lock-free.
    package func loadPersisted() -> (options: OptionsBox?, registration: RegistrationBoxBase?) {
        let section = ReadSection.begin()
        let options = publishedOptions.load()?.takeUnretainedValue()
        let registration = publishedRegistration.load()?.takeUnretainedValue()
        section.end()
        return (options, registration)
    }

    /// Empty options publish `nil`.
    package func setOptions(_ options: consuming FactoryOptions?, _ garbage: inout Garbage) {
        var published: OptionsBox?
        // Moved, not copied: a copy would retain and release each reference.
        if let value = options.take(), !value.isEmpty { published = OptionsBox(value) }
        garbage.add(publishedOptions.exchange(published))
    }

    func linkHit(to cells: CellSet, _ garbage: inout Garbage) {
        if hitLink.load()?.toOpaque() == Unmanaged.passUnretained(cells).toOpaque() { return }
        garbage.add(hitLink.exchange(cells))
    }

    package func unlinkHit(_ garbage: inout Garbage) { garbage.add(hitLink.exchange(nil)) }

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
        guard singletons else { return }
        for box in [registration].compactMap({ $0 }) + (options?.contexts.map(\.box) ?? []) {
            guard let cells = box.cells else { continue }
            cells.collectShutdowns(into: &found)
            cells.removeAll(&garbage)
        }
    }

    /// Forgets dead caches. Each live one stays in `garbage` until unlocked: the strategy may drop it meanwhile, and
    /// its last release must not run under the lock.
    @inline(never)
    private func forEachTrackedCells(_ garbage: inout Garbage, _ body: (CellSet, inout Garbage) -> Void) {
        var alive: [TrackedCells] = []
        for tracked in trackedCells {
            // Straight into `garbage`: a temporary released here could be the last reference.
            guard let cells = tracked.cells else { continue }
            garbage.add(cells)
            body(cells, &garbage)
            alive.append(tracked)
        }
        trackedCells = alive
    }
}

struct TrackedCells {
    weak var cells: CellSet?
}

/// A hash table from factory keys to slots, read without a lock. Slots are only added (under the manager's lock),
/// never removed or replaced, so a reader uses one unretained while the manager lives. Grown-out bucket arrays are kept
/// until the table is freed, so a reader probing one still reads valid memory (they sum to under twice the final one).
///
/// Buckets: capacity (a power of two) at word 0, then (hash, slot pointer) pairs; a zero pointer ends a probe. Readers
/// load the pointer with acquire; writers store the hash first, the pointer last.
@usableFromInline
package final class SlotTable: @unchecked Sendable {
    // Sendable: `current` is atomic; everything else is only touched by writers under the manager's lock.

    @usableFromInline let current = AtomicWord()
    private var arrays: [UnsafeMutablePointer<Int>] = []  // every bucket array, freed with the table
    private var count = 0

    init() {}

    deinit {
        for slot in slots() { slot.release() }
        for array in arrays { array.deallocate() }
    }

    /// Every slot of the current array, unretained.
    private func slots() -> [Unmanaged<Slot>] {
        guard let buckets = UnsafeMutablePointer<Int>(bitPattern: current.value) else { return [] }
        return (0..<buckets[0]).compactMap { UnsafeRawPointer(bitPattern: buckets[2 + 2 * $0 + 1]).map(Unmanaged.fromOpaque) }
    }

    /// Lock-free; unretained, valid while the table's owner lives.
    @_alwaysEmitIntoClient @inline(__always)
    package func find(_ key: FactoryKey) -> Unmanaged<Slot>? {
        guard let buckets = UnsafeMutablePointer<Int>(bitPattern: current.value) else { return nil }
        let hash = key.hashBits
        let mask = buckets[0] &- 1
        var index = hash & mask
        while true {
            let pair = buckets + 2 + 2 &* index
            guard let slot = OwnedAtomicReference<Slot>.load(pair + 1) else { return nil }
            if pair.pointee == hash
                && slot._withUnsafeGuaranteedRef({
                    ObjectIdentifier($0.valueType) == ObjectIdentifier(key.valueType)
                        && ObjectIdentifier($0.parameterType) == ObjectIdentifier(key.parameterType)
                        && ObjectIdentifier($0.containerType) == ObjectIdentifier(key.containerType)
                        && FactoryName.equal($0.name, key.name)
                })
            {
                return slot
            }
            index = (index &+ 1) & mask
        }
    }

    package func all() -> [Slot] { slots().map { $0.takeUnretainedValue() } }  // manager's lock held

    func findOrInsert(_ key: FactoryKey) -> Slot {  // manager's lock held
        if let found = find(key) { return found.takeUnretainedValue() }
        let slot = Slot(key: key)
        let capacity = UnsafeMutablePointer<Int>(bitPattern: current.value)?[0] ?? 0
        if (count + 1) * 4 > capacity * 3 { grow(from: capacity) }
        insert(slot, into: UnsafeMutablePointer<Int>(bitPattern: current.value)!)
        count += 1
        return slot
    }

    private func insert(_ slot: Slot, into buckets: UnsafeMutablePointer<Int>) {
        Self.place(slot.hash, Int(bitPattern: Unmanaged.passRetained(slot).toOpaque()), into: buckets)
    }

    /// Stores a slot's hash and reference at the first free bucket from its hash; the reference last, with release
    /// ordering, so a lock-free reader that finds it sees the slot and its hash.
    private static func place(_ hash: Int, _ slot: Int, into buckets: UnsafeMutablePointer<Int>) {
        let mask = buckets[0] - 1
        var index = hash & mask
        while buckets[2 + 2 * index + 1] != 0 { index = (index + 1) & mask }
        buckets[2 + 2 * index] = hash
        cfactory_atomic_store(buckets + 2 + 2 * index + 1, slot)
    }

    /// A new array twice the size, published once every slot is in it; the old one stays (a reader may be in it).
    private func grow(from capacity: Int) {
        let newCapacity = max(16, capacity * 2)
        let buckets = UnsafeMutablePointer<Int>.allocate(capacity: 2 + 2 * newCapacity)
        buckets.initialize(repeating: 0, count: 2 + 2 * newCapacity)
        buckets[0] = newCapacity
        if let old = UnsafeMutablePointer<Int>(bitPattern: current.value) {
            for index in 0..<old[0] where old[2 + 2 * index + 1] != 0 {
                // The new array takes over the old one's reference.
                Self.place(old[2 + 2 * index], old[2 + 2 * index + 1], into: buckets)
            }
        }
        arrays.append(buckets)
        current.store(Int(bitPattern: UnsafeRawPointer(buckets)))
    }
}
