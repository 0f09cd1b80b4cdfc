#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where scoped instances live: one per container for cached, shared, time-to-live
/// and custom scopes, one per process (or per test, under FactoryTesting) for singletons.
///
/// A resolution takes the storage lock twice at most, never while a factory closure
/// runs. A miss inserts a ``BuildLatch`` before building so that concurrent
/// resolutions of the same entry wait for the one build instead of starting their
/// own: each closure runs once per generation. ``removeAll()`` starts a new
/// generation; a build that finishes after it returns its instance but does not
/// store it.
@usableFromInline
package final class ScopeStorage: @unchecked Sendable {
    // Sendable because `state` is only touched under `lock`.

    /// How a scope holds what it caches.
    @usableFromInline
    package enum Policy: Sendable {
        /// A strong reference until the cache is reset.
        case strong
        /// A weak reference: the instance lives while someone else holds it.
        case weak
        /// A strong reference that expires `nanoseconds` after it was built.
        case expiring(nanoseconds: UInt64)
    }

    @usableFromInline
    package struct SlotKey: Hashable {
        @usableFromInline package let key: FactoryKey
        @usableFromInline package let parameter: AnyHashable?

        @inlinable
        package init(key: FactoryKey, parameter: AnyHashable?) {
            self.key = key
            self.parameter = parameter
        }
    }

    @usableFromInline
    package enum Content {
        case building(BuildLatch)
        case strong(AnyObject)
        case weak(AnyObject)
    }

    @usableFromInline
    package struct Slot {
        @usableFromInline package var scopeID: ObjectIdentifier
        @usableFromInline package var content: Content
        @usableFromInline package var createdAt: UInt64

        @usableFromInline
        package init(scopeID: ObjectIdentifier, content: Content, createdAt: UInt64) {
            self.scopeID = scopeID
            self.content = content
            self.createdAt = createdAt
        }
    }

    /// Entries without a parameter — almost all — are keyed by the factory key
    /// alone, so the common lookup hashes one word and never touches `AnyHashable`.
    @usableFromInline
    package struct State {
        @usableFromInline package var slots: [FactoryKey: Slot] = [:]
        @usableFromInline package var parameterSlots: [SlotKey: Slot] = [:]
        @usableFromInline package var generation: UInt64 = 0
        /// The ``ScopeStorage/removals`` stamp of the last removal of each key, of
        /// each scope, and of everything, so a build can tell whether what it was
        /// about to store was cleared after its resolution chose a closure.
        package var keyRemovedAt: [FactoryKey: Int] = [:]
        package var scopeRemovedAt: [ObjectIdentifier: Int] = [:]
        package var allRemovedAt = 0

        /// Whether a removal stamped after `token` covers this entry.
        package func removedSince(_ token: Int, key: FactoryKey, scopeID: ObjectIdentifier) -> Bool {
            allRemovedAt > token || (keyRemovedAt[key] ?? 0) > token || (scopeRemovedAt[scopeID] ?? 0) > token
        }

        @usableFromInline
        package subscript(_ slotKey: SlotKey) -> Slot? {
            get {
                slotKey.parameter == nil ? slots[slotKey.key] : parameterSlots[slotKey]
            }
            set {
                if slotKey.parameter == nil {
                    slots[slotKey.key] = newValue
                } else {
                    parameterSlots[slotKey] = newValue
                }
            }
        }

        /// Every entry, as slot keys, for bulk operations.
        package var all: [SlotKey: Slot] {
            var result = parameterSlots
            for (key, slot) in slots { result[SlotKey(key: key, parameter: nil)] = slot }
            return result
        }

        package mutating func removeAll(where shouldRemove: (SlotKey, Slot) -> Bool) {
            slots = slots.filter { !shouldRemove(SlotKey(key: $0.key, parameter: nil), $0.value) }
            parameterSlots = parameterSlots.filter { !shouldRemove($0.key, $0.value) }
        }
    }

    @usableFromInline let lock = FactoryLock()
    /// Counts removals; bumped under `lock`, read without it. A resolution reads it
    /// before choosing its closure and passes it down as a token: a build stores
    /// its instance only if no removal of that key, its scope or everything was
    /// stamped after the token. Without it, `register` racing a resolution that had
    /// already chosen the old closure could leave the old closure's instance cached.
    @usableFromInline package let removals = AtomicFlags(0)
    // Only touched under `lock`, so the runtime's exclusivity tracking would only add cost.
    @exclusivity(unchecked) @usableFromInline var state = State()

    package init() {}

    /// The process-wide storage for singletons when no test has swapped in its own.
    package static let processSingletons = ScopeStorage()

    /// A test-scoped singleton storage, bound by FactoryTesting's container trait.
    @TaskLocal package static var taskSingletons: ScopeStorage?

    /// The singleton storage a container created now should use.
    package static var currentSingletons: ScopeStorage {
        taskSingletons ?? processSingletons
    }

    /// Finds or builds the instance for `slotKey` under `scopeID`, holding it per `policy`.
    ///
    /// The strong-hit path is inlined into the resolving module; everything else
    /// (weak and expiring entries, misses, waiting for another thread's build)
    /// goes through ``resolveSlowly(_:scopeID:policy:build:)``.
    @inlinable
    package func resolve<T>(
        _ key: FactoryKey,
        token: Int,
        scopeID: ObjectIdentifier,
        policy: Policy,
        build: () -> T
    ) -> (value: T, isNew: Bool) {
        if case .strong = policy {
            lock.lock()
            if let slot = state.slots[key], slot.scopeID == scopeID, case .strong(let box) = slot.content {
                lock.unlock()
                return (unsafeDowncast(box, to: StrongBox<T>.self).value, false)
            }
            lock.unlock()
        }
        return resolveSlowly(SlotKey(key: key, parameter: nil), token: token, scopeID: scopeID, policy: policy, build: build)
    }

    @usableFromInline
    package func resolveSlowly<T>(
        _ slotKey: SlotKey,
        token: Int,
        scopeID: ObjectIdentifier,
        policy: Policy,
        build: () -> T
    ) -> (value: T, isNew: Bool) {
        while true {
            lock.lock()
            let generation = state.generation
            if let slot = state[slotKey], slot.scopeID == scopeID {
                switch slot.content {
                case .strong(let box):
                    if case .expiring(let ttl) = policy, Self.now() &- slot.createdAt >= ttl {
                        break
                    }
                    lock.unlock()
                    return (unsafeDowncast(box, to: StrongBox<T>.self).value, false)
                case .weak(let box):
                    if let value = unsafeDowncast(box, to: WeakBox<T>.self).value {
                        lock.unlock()
                        return (value, false)
                    }
                case .building(let latch):
                    lock.unlock()
                    latch.wait(forEntered: slotKey.key)
                    continue
                }
            }
            let latch = BuildLatch()
            state[slotKey] = Slot(scopeID: scopeID, content: .building(latch), createdAt: 0)
            lock.unlock()

            let value = build()
            let content: Content?
            switch policy {
            case .strong, .expiring:
                content = .strong(StrongBox(value))
            case .weak:
                content = WeakBox(value).map { .weak($0) }
            }
            lock.lock()
            if state.generation == generation, let slot = state[slotKey],
                case .building(let current) = slot.content, current === latch
            {
                // A removal after the closure was chosen may have dropped that closure:
                // hand this instance to the caller but keep it out of the cache.
                let stale = state.removedSince(token, key: slotKey.key, scopeID: scopeID)
                state[slotKey] = stale ? nil : content.map { Slot(scopeID: scopeID, content: $0, createdAt: Self.now()) }
            }
            lock.unlock()
            latch.open()
            return (value, true)
        }
    }

    /// Forgets every instance built for `key`, with any parameter, in any scope.
    package func remove(_ key: FactoryKey) {
        lock.withLock {
            state.removeAll { slotKey, _ in slotKey.key == key }
            state.keyRemovedAt[key] = stamp()
        }
    }

    /// Forgets every instance cached under the scope with identity `scopeID`.
    package func remove(scopeID: ObjectIdentifier) {
        lock.withLock {
            state.removeAll { _, slot in slot.scopeID == scopeID }
            state.scopeRemovedAt[scopeID] = stamp()
        }
    }

    /// Forgets everything and starts a new generation.
    package func removeAll() {
        lock.withLock {
            state.slots.removeAll()
            state.parameterSlots.removeAll()
            state.generation &+= 1
            state.allRemovedAt = stamp()
        }
    }

    /// Finished entries only (builds in flight are left out), for push/pop.
    package func snapshot() -> [SlotKey: Slot] {
        lock.withLock {
            state.all.filter {
                if case .building = $0.value.content { return false }
                return true
            }
        }
    }

    /// Replaces every entry with `slots` and starts a new generation.
    package func restore(_ slots: [SlotKey: Slot]) {
        lock.withLock {
            state.slots = [:]
            state.parameterSlots = [:]
            for (slotKey, slot) in slots { state[slotKey] = slot }
            state.generation &+= 1
            state.allRemovedAt = stamp()
        }
    }

    /// Whether an instance for `key` is stored (built, not in flight).
    package func contains(_ key: FactoryKey) -> Bool {
        lock.withLock {
            state.all.contains { slot in
                guard slot.key.key == key else { return false }
                if case .building = slot.value.content { return false }
                return true
            }
        }
    }

    /// The next removal stamp; call with `lock` held.
    private func stamp() -> Int {
        removals.add(1) + 1
    }

    /// Monotonic nanoseconds, for time-to-live scopes.
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// Holds a cached instance strongly. The key guarantees `T`, so readers downcast unchecked.
@usableFromInline
package final class StrongBox<T> {
    @usableFromInline package let value: T
    @usableFromInline package init(_ value: T) { self.value = value }
}

/// Holds a cached instance weakly.
///
/// `T` may be a class or a class-constrained existential, which `weak` cannot
/// name generically; the box keeps a weak reference for liveness plus an
/// unretained bit copy of the value, which is only read while the weak
/// reference proves the object is alive.
package final class WeakBox<T> {
    private weak var object: AnyObject?
    private let bits: UnsafeMutableRawPointer

    /// Returns `nil` when `value` is not an object (or is `nil`): such values cannot be held weakly.
    package init?(_ value: T) {
        guard let object = Self.object(in: value) else { return nil }
        self.object = object
        bits = .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        withUnsafeBytes(of: value) { bits.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    deinit {
        bits.deallocate()
    }

    /// The instance, or `nil` once nobody else holds it.
    package var value: T? {
        guard let object else { return nil }
        return withExtendedLifetime(object) { bits.load(as: T.self) }
    }

    private static func object(in value: T) -> AnyObject? {
        var any: Any = value
        while true {
            let mirror = Mirror(reflecting: any)
            guard mirror.displayStyle == .optional else { break }
            guard let wrapped = mirror.children.first?.value else { return nil }
            any = wrapped
        }
        guard type(of: any) is AnyClass else { return nil }
        return any as AnyObject
    }
}

/// Marks a cache entry whose instance is being built.
///
/// The building thread holds `lock` from creation to ``open()``; a thread that
/// finds the latch waits by taking and releasing it.
@usableFromInline
package final class BuildLatch: @unchecked Sendable {
    // Sendable because `owner` is immutable and `lock` is the core lock.
    private let lock = FactoryLock()
    private let owner = ObjectIdentifier(ResolutionContext.current)

    package init() {
        lock.lock()
    }

    package func open() {
        lock.unlock()
    }

    /// Blocks until the build finishes; a thread waiting on its own build is a cycle.
    package func wait(for key: FactoryKey) {
        wait { $0.chainDescription(appending: key) }
    }

    /// ``wait(for:)`` for a scope cache, whose thread has already entered `key`: the
    /// chain ends with it, so a cycle report names it once, not twice.
    package func wait(forEntered key: FactoryKey) {
        wait { $0.chain.map(\.description).joined(separator: " > ") }
    }

    private func wait(chain: (ResolutionContext) -> String) {
        let context = ResolutionContext.current
        if owner == ObjectIdentifier(context) {
            FactoryError.fail(.circularDependency(chain: chain(context)))
        }
        lock.lock()
        lock.unlock()
    }
}
