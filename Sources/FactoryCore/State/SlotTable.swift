import CFactoryAtomics

@usableFromInline
package protocol TableEntry: AnyObject {
    var hash: Int { get }
    var name: StaticString { get }
    var valueType: Any.Type { get }
    var parameterType: Any.Type { get }
    var containerType: any AnyObject.Type { get }
}

extension TableEntry {
    @inlinable
    package func matches(
        _ name: StaticString, _ valueType: ObjectIdentifier, _ parameterType: ObjectIdentifier,
        _ containerType: ObjectIdentifier
    ) -> Bool {
        ObjectIdentifier(self.valueType) == valueType && ObjectIdentifier(self.parameterType) == parameterType
            && ObjectIdentifier(self.containerType) == containerType && FactoryName.equal(self.name, name)
    }
}

/// A hash table from factory keys to per-factory state, read without a lock. Entries are only
/// added (under the owner's lock), never removed or replaced, so a reader uses one unretained
/// while the owner lives. Grown-out bucket arrays are kept until the table is freed, so a reader
/// probing one still reads valid memory (they sum to under twice the final one).
///
/// Buckets: capacity (a power of two) at word 0, then (hash, entry pointer) pairs; a zero pointer
/// ends a probe. Readers load the pointer with acquire; writers store the hash first, the pointer last.
@usableFromInline
package final class SlotTable<Entry: TableEntry>: @unchecked Sendable {
    // Sendable: `current` is atomic; everything else is only touched by writers under the owner's lock.

    @usableFromInline let current = AtomicWord()
    private var arrays: [UnsafeMutablePointer<Int>] = []  // every bucket array, freed with the table
    private var count = 0

    package init() {}

    deinit {
        let buckets = UnsafeMutablePointer<Int>(bitPattern: current.value)
        if let buckets {
            let capacity = buckets[0]
            for index in 0..<capacity where buckets[2 + 2 * index + 1] != 0 {
                Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: buckets[2 + 2 * index + 1])!).release()
            }
        }
        for array in arrays { array.deallocate() }
    }

    /// Lock-free; unretained, valid while the table's owner lives.
    @_alwaysEmitIntoClient @inline(__always)
    package func find(
        _ hash: Int, _ name: StaticString, _ valueType: ObjectIdentifier, _ parameterType: ObjectIdentifier,
        containerType: ObjectIdentifier
    ) -> Unmanaged<Entry>? {
        guard let buckets = UnsafeMutablePointer<Int>(bitPattern: current.value) else { return nil }
        let mask = buckets[0] &- 1
        var index = hash & mask
        while true {
            let pair = buckets + 2 + 2 &* index
            let bits = AtomicReference<Entry>(word: pair + 1).load()
            guard let entry = bits else { return nil }
            if pair.pointee == hash
                && entry._withUnsafeGuaranteedRef({ $0.matches(name, valueType, parameterType, containerType) })
            {
                return entry
            }
            index = (index &+ 1) & mask
        }
    }

    package func all() -> [Entry] {  // owner's lock held
        guard let buckets = UnsafeMutablePointer<Int>(bitPattern: current.value) else { return [] }
        var result: [Entry] = []
        result.reserveCapacity(count)
        for index in 0..<buckets[0] where buckets[2 + 2 * index + 1] != 0 {
            result.append(
                Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: buckets[2 + 2 * index + 1])!).takeUnretainedValue())
        }
        return result
    }

    package func findOrInsert(  // owner's lock held
        _ hash: Int, _ name: StaticString, _ valueType: ObjectIdentifier, _ parameterType: ObjectIdentifier,
        containerType: ObjectIdentifier, make: () -> Entry
    ) -> Entry {
        if let found = find(hash, name, valueType, parameterType, containerType: containerType) {
            return found.takeUnretainedValue()
        }
        let entry = make()
        if (count + 1) * 4 > capacity * 3 { grow() }
        insert(entry, into: UnsafeMutablePointer<Int>(bitPattern: current.value)!)
        count += 1
        return entry
    }

    private var capacity: Int { UnsafeMutablePointer<Int>(bitPattern: current.value)?[0] ?? 0 }

    private func insert(_ entry: Entry, into buckets: UnsafeMutablePointer<Int>) {
        let mask = buckets[0] - 1
        var index = entry.hash & mask
        while buckets[2 + 2 * index + 1] != 0 { index = (index + 1) & mask }
        buckets[2 + 2 * index] = entry.hash
        cfactory_atomic_store(buckets + 2 + 2 * index + 1, Int(bitPattern: Unmanaged.passRetained(entry).toOpaque()))  // release
    }

    private func grow() {
        let newCapacity = max(16, capacity * 2)
        let buckets = UnsafeMutablePointer<Int>.allocate(capacity: 2 + 2 * newCapacity)
        buckets.initialize(repeating: 0, count: 2 + 2 * newCapacity)
        buckets[0] = newCapacity
        if let old = UnsafeMutablePointer<Int>(bitPattern: current.value) {
            for index in 0..<old[0] where old[2 + 2 * index + 1] != 0 {
                // The new array takes over the old one's reference.
                let mask = newCapacity - 1
                var slot = old[2 + 2 * index] & mask
                while buckets[2 + 2 * slot + 1] != 0 { slot = (slot + 1) & mask }
                buckets[2 + 2 * slot] = old[2 + 2 * index]
                buckets[2 + 2 * slot + 1] = old[2 + 2 * index + 1]
            }
        }
        arrays.append(buckets)
        current.store(Int(bitPattern: UnsafeRawPointer(buckets)))
    }
}

extension SlotTable {
    @_alwaysEmitIntoClient @inline(__always)
    package func find(_ key: FactoryKey) -> Unmanaged<Entry>? {
        find(
            key.hashBits, key.name, ObjectIdentifier(key.valueType), ObjectIdentifier(key.parameterType),
            containerType: ObjectIdentifier(key.containerType))
    }

    package func findOrInsert(_ key: FactoryKey, _ make: () -> Entry) -> Entry {  // owner's lock held
        findOrInsert(
            key.hashBits, key.name, ObjectIdentifier(key.valueType), ObjectIdentifier(key.parameterType),
            containerType: ObjectIdentifier(key.containerType), make: make)
    }
}
