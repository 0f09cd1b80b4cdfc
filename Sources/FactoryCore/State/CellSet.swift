import CFactoryAtomics

/// One factory's instances in one place (container, singleton storage, registration or a custom cache): one without a
/// parameter, one per parameter for `scopeOnParameters`, and the builds under way. The unparameterized one is read
/// lock-free (``validCell(scopeID:ttl:epoch:)``); the rest is guarded by the owner's lock (manager, plus the location's
/// extra lock), which every method here expects held.
@usableFromInline
package final class CellSet: @unchecked Sendable {
    // Sendable: `unparameterized` is atomic, the rest only touched under the owner's lock, which
    // also makes accesses exclusive, hence `@exclusivity(unchecked)` (no runtime tracking cost).

    /// Which closures' instances these cells hold, for a hit that reads them through a slot's link.
    @usableFromInline
    package enum Admission: UInt8, Sendable {
        /// Whatever closure built it: a container's own cells.
        case anyClosure
        /// The definition's (or a context override it declares): a storage's singletons of the definition.
        case definition
        /// A registration that describes the container type (made by `autoRegister()` or `once()`).
        case typeRegistrations
    }

    @usableFromInline let unparameterized = OwnedAtomicReference<CacheCell>()
    @usableFromInline let admission: Admission
    /// Bumped by every removal, so an earlier build (whose closure may have been replaced) does not store.
    @exclusivity(unchecked) package var generation = 0
    @exclusivity(unchecked) var gate: BuildGate?
    /// Per parameter (`scopeOnParameters`): a key is here, and in `parameterIndex` under its hash, only while its
    /// entry holds an instance or a build.
    @exclusivity(unchecked) package var parameterEntries: [ParameterKey: Entry] = [:]
    @exclusivity(unchecked) package var parameterIndex: [Int: [ParameterKey]] = [:]

    /// One cache entry: its finished instance and its build under way.
    package struct Entry {
        package var cell: CacheCell?
        package var gate: BuildGate?
    }

    package init(admitting admission: Admission) { self.admission = admission }

    /// Whether a hit for `box`'s closure (`nil`: the definition's) may return what these cells hold. Lock-free:
    /// `describesType` is set before the box is published.
    @inline(__always)
    func admits(_ box: RegistrationBoxBase?) -> Bool {
        switch admission {
        case .anyClosure: return true
        case .definition: return box == nil
        case .typeRegistrations: return box?.describesType == true
        }
    }

    package var cell: CacheCell? { unparameterized.load()?.takeUnretainedValue() }

    package func setCell(_ cell: CacheCell?, _ garbage: inout Garbage) {
        garbage.add(unparameterized.exchange(cell))
    }

    /// Unretained, valid inside the caller's read section. `ttl` 0: none.
    @inline(__always)
    func validCell(scopeID: ObjectIdentifier, ttl: UInt64, epoch: Int) -> Unmanaged<CacheCell>? {
        guard let cell = unparameterized.load(),
            cell._withUnsafeGuaranteedRef({ $0.epoch == epoch && $0.isValid(scopeID: scopeID, ttl: ttl) })
        else { return nil }
        return cell
    }

    /// `parameter`'s entry, or (`nil`) the unparameterized one.
    func entry(_ parameter: ParameterKey?) -> Entry {
        guard let parameter else { return Entry(cell: cell, gate: gate) }
        return parameterEntries[parameter] ?? Entry()
    }

    /// A replaced instance goes to `garbage`, as does a key no entry uses any more (it may hold the last reference to
    /// a user's value). A replaced gate is the caller's to keep: its build's release may drop an instance.
    func setEntry(_ entry: Entry, for parameter: ParameterKey?, _ garbage: inout Garbage) {
        guard let parameter else {
            if entry.cell !== cell { setCell(entry.cell, &garbage) }
            gate = entry.gate
            return
        }
        let unused = entry.cell == nil && entry.gate == nil
        let old =
            unused ? parameterEntries.removeValue(forKey: parameter) : parameterEntries.updateValue(entry, forKey: parameter)
        if let replaced = old?.cell, replaced !== entry.cell { garbage.add(replaced) }
        if unused, old != nil {
            unindexParameterKey(parameter, &garbage)
        } else if !unused, old == nil {
            indexParameterKey(parameter)
        }
    }

    /// The unparameterized entry's key (`nil`), then every parameter's.
    private var keys: [ParameterKey?] { [nil] + parameterEntries.keys.map { $0 } }

    /// Every instance goes, and a new generation starts; builds under way stay, outdated.
    package func removeAll(_ garbage: inout Garbage) {
        generation &+= 1
        setCell(nil, &garbage)
        for (key, entry) in parameterEntries where entry.cell != nil { setEntry(Entry(gate: entry.gate), for: key, &garbage) }
    }

    /// Also makes a build of that scope under way keep its instance to itself.
    func remove(scopeID: ObjectIdentifier, _ garbage: inout Garbage) {
        var removed = false
        for key in keys {
            let entry = entry(key)
            if entry.gate?.scopeID == scopeID { removed = true }
            guard entry.cell?.scopeID == scopeID else { continue }
            setEntry(Entry(gate: entry.gate), for: key, &garbage)
            removed = true
        }
        if removed { generation &+= 1 }
    }

    /// After ``removeAll(_:)``: the instances a snapshot kept come back (`pop()`).
    package func restore(_ cell: CacheCell?, parameterCells: [ParameterKey: CacheCell], _ garbage: inout Garbage) {
        setCell(cell, &garbage)
        for (key, cell) in parameterCells { setEntry(Entry(cell: cell, gate: entry(key).gate), for: key, &garbage) }
    }

    package var parameterCells: [ParameterKey: CacheCell] { parameterEntries.compactMapValues(\.cell) }

    package var isEmpty: Bool { cell == nil && !parameterEntries.values.contains { $0.cell != nil } }  // finished builds only

    package func collectShutdowns(into found: inout [ShutdownItem]) {
        for cell in [cell] + parameterEntries.values.map(\.cell) {
            if let cell, let record = cell.shutdown { found.append(ShutdownItem(cell: cell, record: record)) }
        }
    }

    func parameterKeys(hash: Int) -> [ParameterKey] { parameterIndex[hash] ?? [] }

    private func indexParameterKey(_ key: ParameterKey) {
        guard parameterIndex[key.hash]?.contains(where: { $0 === key }) != true else { return }
        parameterIndex[key.hash, default: []].append(key)
    }

    private func unindexParameterKey(_ key: ParameterKey, _ garbage: inout Garbage) {
        guard var keys = parameterIndex[key.hash], let index = keys.firstIndex(where: { $0 === key }) else { return }
        garbage.add(keys.remove(at: index))
        parameterIndex[key.hash] = keys.isEmpty ? nil : keys
    }
}

// A parameter's `hash(into:)` and `==` are user code that may resolve from the container whose lock guards the cache,
// so neither runs under it: the hash is taken before locking, keys compare by identity, and an equal parameter's key is
// found by comparing outside the lock (`ParameterLookup`).

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

/// Finds a parameter's key in a per-parameter cache. The parameter's own `hash(into:)` and `==` run here with no lock
/// held; under the lock it only checks the keys it compared are still current.
struct ParameterLookup {
    let value: AnyHashable
    let hash: Int
    private var compared: [ParameterKey] = []  // the cache's keys of this hash, in its order
    private var match: ParameterKey?

    /// `nil` without a key (``hashable(_:)``): built, not cached. Runs `hash(into:)`: no lock held.
    init?(_ value: AnyHashable?) {
        guard let value else { return nil }
        self.value = value
        hash = value.hashValue
    }

    /// `nil` when not `Hashable` or unequal to itself (`Double.nan`): never found again, so not cached. Runs `==`.
    static func hashable<P>(_ parameter: P) -> AnyHashable? {
        guard let key = parameter as? AnyHashable, key == key else { return nil }
        return key
    }

    /// ``hashable(_:)`` of the parameter at `address`, of type `type`; `nil` without a parameter.
    static func hashable(at address: UnsafeRawPointer?, _ type: Any.Type) -> AnyHashable? {
        guard let address else { return nil }
        func key<P>(_: P.Type) -> AnyHashable? { hashable(address.assumingMemoryBound(to: P.self).pointee) }
        return key(type)
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

/// A cache's keys of one hash and, when there was one, its valid instance: an equal parameter is then a hit with no
/// second lock.
struct ParameterCandidates {
    let keys: [ParameterKey]
    let cell: CacheCell?
}

/// One cached instance and what it was built under. Immutable: a new build publishes a new cell,
/// so a lock-free reader sees a whole cell or none. Not generic: the instance lives at
/// ``storage``, so any reader finds it without a generic class's metadata; a reader copies it out
/// as its factory key's type (``read(_:)``), the type-unaware engine hands it over held (``found()``).
@usableFromInline
package final class CacheCell: @unchecked Sendable {
    // Sendable: every stored property is a `let` (the weak one is the runtime's atomic weak
    // reference); the instance is the user's, shared as the scope promises.

    /// Owned by a strong cell; in a weak cell an unretained bit copy, valid while `weakObject` lives.
    @usableFromInline package let storage: UnsafeMutableRawPointer
    @usableFromInline package let scopeID: ObjectIdentifier  // a hit under another scope is a miss
    @usableFromInline package let createdAt: UInt64  // monotonic nanoseconds
    /// The location's ``CacheLocation/epoch`` (0 where none); a cell of another epoch is stale.
    @usableFromInline package let epoch: Int
    package let shutdown: ShutdownRecord?
    package let valueType: Any.Type
    @usableFromInline package let isWeak: Bool  // the shared scope: alive only while `weakObject` is
    private weak var weakObject: AnyObject?

    private init(
        storage: UnsafeMutableRawPointer, valueType: Any.Type, object: AnyObject?, scopeID: ObjectIdentifier,
        createdAt: UInt64, epoch: Int, shutdown: ShutdownRecord?
    ) {
        self.storage = storage
        self.valueType = valueType
        isWeak = object != nil
        weakObject = object
        self.scopeID = scopeID
        self.createdAt = createdAt
        self.epoch = epoch
        self.shutdown = shutdown
    }

    deinit {
        if !isWeak {
            func destroy<V>(_: V.Type) { storage.assumingMemoryBound(to: V.self).deinitialize(count: 1) }
            destroy(valueType)
        }
        storage.deallocate()
    }

    /// `nil` if `weak` and the instance is no object. A weak cell records no shutdown: a
    /// container does not own what it holds weakly.
    package static func make(
        copying value: UnsafeRawPointer, type: Any.Type, weak: Bool, scopeID: ObjectIdentifier, createdAt: UInt64,
        epoch: Int, shutdown: ShutdownRecord?
    ) -> CacheCell? {
        func make<V>(_: V.Type) -> CacheCell? {
            let instance = value.assumingMemoryBound(to: V.self)
            var object: AnyObject?
            if weak {
                guard let found = CacheCell.object(in: instance.pointee) else { return nil }
                object = found
            }
            let storage = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<V>.size, alignment: MemoryLayout<V>.alignment)
            if weak {
                // A bit copy holding no reference: the weak reference says whether it is alive.
                storage.copyMemory(from: value, byteCount: MemoryLayout<V>.size)
            } else {
                storage.initializeMemory(as: V.self, to: instance.pointee)
            }
            return CacheCell(
                storage: storage, valueType: V.self, object: object, scopeID: scopeID, createdAt: createdAt, epoch: epoch,
                shutdown: weak ? nil : shutdown)
        }
        return make(type)
    }

    /// Built under `scopeID` and younger than `ttl` nanoseconds (0: forever).
    @inline(__always)
    func isValid(scopeID: ObjectIdentifier, ttl: UInt64) -> Bool {
        guard self.scopeID == scopeID else { return false }
        return ttl == 0 || cfactory_monotonic_ns() &- createdAt < ttl
    }

    /// The object `value` holds (a class instance, a class existential, or an optional of one), which `weak` cannot
    /// name generically; `nil` when it holds none.
    package static func object(in value: Any) -> AnyObject? {
        var any = value
        while true {
            let mirror = Mirror(reflecting: any)
            guard mirror.displayStyle == .optional else { break }
            guard let wrapped = mirror.children.first?.value else { return nil }
            any = wrapped
        }
        guard type(of: any) is AnyClass else { return nil }
        return any as AnyObject
    }

    /// Held until the caller copies it out; `nil` once a weak instance is gone.
    package func found() -> FoundInstance? {
        guard isWeak else { return FoundInstance(cell: self, object: nil) }
        return weakObject.map { FoundInstance(cell: self, object: $0) }
    }
}

/// A found cell, held until the caller, who knows the value type, reads it.
package struct FoundInstance {
    let cell: CacheCell
    let object: AnyObject?  // a weak cell's, held so the instance cannot be gone when read

    var address: UnsafeRawPointer {  // valid while this value lives
        UnsafeRawPointer(cell.storage)
    }

    /// `object`, a weak cell's instance, is this value's: alive while it is.
    package func read<T>(_ type: T.Type) -> T { cell.storage.assumingMemoryBound(to: T.self).pointee }
}

/// An `onShutdown` closure (FactoryScopes) stored untyped, wrapped to read the instance out of
/// its cell as the closure's type.
@usableFromInline
package final class ShutdownHandler: Sendable {
    #if SwiftConcurrency
    let run: @Sendable (CacheCell, FactoryKey) async throws -> Void

    init(_ run: @escaping @Sendable (CacheCell, FactoryKey) async throws -> Void) { self.run = run }
    #endif
}

#if SwiftConcurrency
extension FactoryRegistration {
    /// The factory's shutdown (FactoryScopes' `onShutdown`): `shutdown` gets the cached instance as `T`. The cell was
    /// stored for this key, whose value type is `T`; checked all the same, since a mismatch would hand the closure a
    /// value of another type.
    package mutating func setShutdown<T: Sendable>(
        _ shutdown: @escaping @Sendable (T) async throws -> Void, caller: StaticString
    ) {
        setShutdown(
            ShutdownHandler { cell, key in
                guard cell.valueType == T.self, let found = cell.found() else { FactoryError.fail(.shutdownTypeMismatch(key)) }
                try await shutdown(found.read(T.self))
            }, caller: caller)
    }
}
#endif

/// A cached instance's shutdown: its factory, its order, and whether it started. Shared by every
/// cell holding the instance (a registration's singleton is also the storage's), so it runs once.
@usableFromInline
package final class ShutdownRecord: Sendable {
    package let handler: ShutdownHandler
    package let key: FactoryKey
    /// Process-wide construction order: a dependent is stored after what it was built on, so
    /// decreasing order closes dependents first.
    package let order: Int
    private let started = AtomicWord()

    private static let counter = AtomicWord()

    package init(handler: ShutdownHandler, key: FactoryKey) {
        self.handler = handler
        self.key = key
        order = Self.counter.add(1)
    }

    /// `false` if the shutdown had started already.
    package func claim() -> Bool { started.compareExchange(expected: 0, desired: 1) }
}
