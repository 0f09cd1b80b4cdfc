/// Where singletons live: one storage for the process, and one per test under
/// FactoryTesting's container traits.
///
/// A singleton is shared by every container that uses the same storage and
/// resolves the factory the same way:
/// - built from the factory's definition: one instance per storage and key;
/// - built from a registration made by `autoRegister()` or `once()`, which
///   describes the container type: one shared instance per storage and key,
///   which any registration of the factory replaces when it builds (Factory's
///   own behaviour);
/// - built from a registration made with `register` on one container instance:
///   kept with that registration, so no other container instance sees it.
///
/// Readers hit without a lock; builds and resets take ``lock``, after the
/// manager's lock when both are needed (never the other way round).
@usableFromInline
package final class SingletonStorage: @unchecked Sendable {
    // Sendable because the table and eras are atomic and everything else is
    // guarded by `lock`.

    /// Guards every cell set of this storage.
    package let lock = FactoryLock()
    /// One entry per singleton factory used with this storage.
    @usableFromInline package let table = SlotTable<SingletonSlot>()
    /// Bumped by ``resetAll()``: instances kept with registrations built in an
    /// older era are stale.
    @usableFromInline package let era = AtomicWord(1)

    package init() {}

    /// The process's storage.
    package static let process = SingletonStorage()

    #if SwiftConcurrency
    /// The storage FactoryTesting binds for the running test, if any.
    @TaskLocal package static var testStorage: SingletonStorage?
    #else
    /// Without the `SwiftConcurrency` trait there is no test storage.
    package static var testStorage: SingletonStorage? { nil }
    #endif

    /// The storage `Scope.singleton.reset()` resets: the running test's, else the process's.
    package static var current: SingletonStorage {
        testStorage ?? process
    }

    /// The entry for `key`, lock-free, or `nil` if the key never stored anything here.
    @_alwaysEmitIntoClient @inline(__always)
    package func find(_ key: FactoryKey) -> Unmanaged<SingletonSlot>? {
        table.find(
            key.hashBits, key.name, ObjectIdentifier(key.valueType), ObjectIdentifier(key.parameterType),
            containerType: ObjectIdentifier(key.containerType))
    }

    /// The entry for `key`, made if missing; `lock` held.
    package func slot(_ key: FactoryKey) -> SingletonSlot {
        table.findOrInsert(
            key.hashBits, key.name, ObjectIdentifier(key.valueType), ObjectIdentifier(key.parameterType),
            containerType: ObjectIdentifier(key.containerType)
        ) { SingletonSlot(key: key) }
    }

    /// Drops every singleton of this storage, including those kept with registrations.
    package func resetAll() {
        var garbage = Garbage()
        var found: [ShutdownItem] = []
        removeAll(collectingShutdowns: &found, &garbage)
        garbage.release()
    }

    /// Drops every singleton of this storage, as ``resetAll()``, adding those
    /// whose factory declared a shutdown to `found`; the dropped cells go to `garbage`.
    package func removeAll(collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage) {
        lock.withLock {
            era.add(1)
            for slot in table.all() {
                slot.definition.collectShutdowns(into: &found)
                slot.shared.collectShutdowns(into: &found)
                slot.definition.removeAll(&garbage)
                slot.shared.removeAll(&garbage)
            }
        }
    }

    /// Drops the singletons of one factory (its definition's and the shared one).
    package func remove(_ key: FactoryKey, _ garbage: inout Garbage) {
        lock.withLock {
            guard let slot = find(key)?.takeUnretainedValue() else { return }
            slot.definition.removeAll(&garbage)
            slot.shared.removeAll(&garbage)
        }
    }
}

/// One singleton factory's instances in one storage.
@usableFromInline
package final class SingletonSlot: TableEntry, @unchecked Sendable {
    // Sendable: immutable identity, and cell sets guarded by the storage's lock.
    @usableFromInline package let hash: Int
    @usableFromInline package let name: StaticString
    @usableFromInline package let valueType: Any.Type
    @usableFromInline package let parameterType: Any.Type
    @usableFromInline package let containerType: any AnyObject.Type
    /// Built from the factory's definition (or a context override it declares).
    @usableFromInline package let definition = CellSet()
    /// Built from a registration that describes the container type, or the last
    /// instance any registration of this factory built.
    @usableFromInline package let shared = CellSet()

    package init(key: FactoryKey) {
        hash = key.hashBits
        name = key.name
        valueType = key.valueType
        parameterType = key.parameterType
        containerType = key.containerType
    }

    @inlinable
    package func matches(
        _ name: StaticString, _ valueType: ObjectIdentifier, _ parameterType: ObjectIdentifier,
        _ containerType: ObjectIdentifier
    ) -> Bool {
        ObjectIdentifier(self.valueType) == valueType && ObjectIdentifier(self.parameterType) == parameterType
            && ObjectIdentifier(self.containerType) == containerType && FactoryName.equal(self.name, name)
    }
}
