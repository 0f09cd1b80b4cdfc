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
package final class ScopeStorage: @unchecked Sendable {
    // Sendable because `state` is only touched under `lock`.

    /// How a scope holds what it caches.
    package enum Policy: Sendable {
        /// A strong reference until the cache is reset.
        case strong
        /// A weak reference: the instance lives while someone else holds it.
        case weak
        /// A strong reference that expires `nanoseconds` after it was built.
        case expiring(nanoseconds: UInt64)
    }

    package struct SlotKey: Hashable {
        package let key: FactoryKey
        package let parameter: AnyHashable?

        package init(key: FactoryKey, parameter: AnyHashable?) {
            self.key = key
            self.parameter = parameter
        }
    }

    package enum Content {
        case building(BuildLatch)
        case strong(AnyObject)
        case weak(AnyObject)
    }

    package struct Slot {
        package var scopeID: ObjectIdentifier
        package var content: Content
        package var createdAt: UInt64
    }

    package struct State {
        package var slots: [SlotKey: Slot] = [:]
        package var generation: UInt64 = 0
    }

    private let lock = FactoryLock()
    private var state = State()

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
    package func resolve<T>(
        _ slotKey: SlotKey,
        scopeID: ObjectIdentifier,
        policy: Policy,
        build: () -> T
    ) -> (value: T, isNew: Bool) {
        while true {
            lock.lock()
            let generation = state.generation
            if let slot = state.slots[slotKey], slot.scopeID == scopeID {
                switch slot.content {
                case .strong(let box):
                    if case .expiring(let ttl) = policy, Self.now() &- slot.createdAt >= ttl {
                        break
                    }
                    lock.unlock()
                    return (unsafeDowncast(box, to: StrongBox<T>.self).value, false)
                case .weak(let box):
                    let weakBox = unsafeDowncast(box, to: WeakBox<T>.self)
                    if let value = weakBox.value {
                        lock.unlock()
                        return (value, false)
                    }
                case .building(let latch):
                    lock.unlock()
                    latch.wait(for: slotKey.key)
                    continue
                }
            }
            let latch = BuildLatch()
            state.slots[slotKey] = Slot(scopeID: scopeID, content: .building(latch), createdAt: 0)
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
            if state.generation == generation, let slot = state.slots[slotKey],
                case .building(let current) = slot.content, current === latch
            {
                if let content {
                    state.slots[slotKey] = Slot(scopeID: scopeID, content: content, createdAt: Self.now())
                } else {
                    state.slots[slotKey] = nil
                }
            }
            lock.unlock()
            latch.open()
            return (value, true)
        }
    }

    /// Forgets every instance built for `key`, with any parameter, in any scope.
    package func remove(_ key: FactoryKey) {
        lock.withLock {
            state.slots = state.slots.filter { $0.key.key != key }
        }
    }

    /// Forgets every instance cached under the scope with identity `scopeID`.
    package func remove(scopeID: ObjectIdentifier) {
        lock.withLock {
            state.slots = state.slots.filter { $0.value.scopeID != scopeID }
        }
    }

    /// Forgets everything and starts a new generation.
    package func removeAll() {
        lock.withLock {
            state.slots.removeAll()
            state.generation &+= 1
        }
    }

    /// Finished entries only (builds in flight are left out), for push/pop.
    package func snapshot() -> [SlotKey: Slot] {
        lock.withLock {
            state.slots.filter {
                if case .building = $0.value.content { return false }
                return true
            }
        }
    }

    /// Replaces every entry with `slots` and starts a new generation.
    package func restore(_ slots: [SlotKey: Slot]) {
        lock.withLock {
            state.slots = slots
            state.generation &+= 1
        }
    }

    /// Whether an instance for `key` is stored (built, not in flight).
    package func contains(_ key: FactoryKey) -> Bool {
        lock.withLock {
            state.slots.contains { slot in
                guard slot.key.key == key else { return false }
                if case .building = slot.value.content { return false }
                return true
            }
        }
    }

    /// Monotonic nanoseconds, for time-to-live scopes.
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// Holds a cached instance strongly. The key guarantees `T`, so readers downcast unchecked.
package final class StrongBox<T> {
    package let value: T
    package init(_ value: T) { self.value = value }
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
        if owner == ObjectIdentifier(ResolutionContext.current) {
            FactoryError.fail(.circularDependency(chain: ResolutionContext.current.chainDescription(appending: key)))
        }
        lock.lock()
        lock.unlock()
    }
}
