/// The singletons of one ``GlobalStorage`` (the process's, or a test's under
/// FactoryTesting's container traits).
///
/// A singleton is shared by every container that uses the same storage and
/// resolves the factory the same way:
/// - built from the factory's definition: one instance per storage and key;
/// - built from a registration made by `autoRegister()` or `once()`, which
///   describes the container type: one shared instance per storage and key,
///   which any registration of the factory replaces when it builds (Factory's
///   own behaviour);
/// - built from a registration made with `register` on one container instance:
///   kept with that registration (``RegistrationBoxBase/cells``), so no
///   other container instance sees it.
///
/// Readers find a factory's entry without a lock; everything else runs with the
/// storage's lock held.
package final class SingletonTable: GlobalStorageContents {
    /// One entry per singleton factory used with this storage.
    package let table = SlotTable<SingletonSlot>()
    /// Bumped by each reset of every singleton here: a singleton kept with a
    /// registration (``RegistrationBoxBase/cells``) in an older era is stale.
    package let era = AtomicWord(1)

    /// The entry for `key`, lock-free, or `nil` if the key never stored anything here.
    package func find(_ key: FactoryKey) -> Unmanaged<SingletonSlot>? {
        table.find(key)
    }

    /// The entry for `key`, made if missing; the storage's lock held.
    package func slot(_ key: FactoryKey) -> SingletonSlot {
        table.findOrInsert(key) { SingletonSlot(key: key) }
    }

    package func removeAll(collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage) {
        era.add(1)
        for slot in table.all() {
            slot.definition.collectShutdowns(into: &found)
            slot.shared.collectShutdowns(into: &found)
            slot.definition.removeAll(&garbage)
            slot.shared.removeAll(&garbage)
        }
    }

    /// A registration of one container replaced the definition there: the
    /// singleton the factory's registrations share goes, as in Factory.
    package func registered(_ key: FactoryKey, _ garbage: inout Garbage) {
        find(key)?.takeUnretainedValue().shared.removeAll(&garbage)
    }

    /// The factory's `reset(.scope)`: every singleton it has here goes.
    package func reset(_ key: FactoryKey, _ garbage: inout Garbage) {
        guard let slot = find(key)?.takeUnretainedValue() else { return }
        slot.definition.removeAll(&garbage)
        slot.shared.removeAll(&garbage)
    }
}

/// One singleton factory's instances in one storage.
package final class SingletonSlot: TableEntry, @unchecked Sendable {
    // Sendable: immutable identity, and cell sets guarded by the storage's lock.
    package let hash: Int
    package let name: StaticString
    package let valueType: Any.Type
    package let parameterType: Any.Type
    package let containerType: any AnyObject.Type
    /// Built from the factory's definition (or a context override it declares).
    package let definition = CellSet()
    /// Built from a registration that describes the container type, or the last
    /// instance any registration of this factory built.
    package let shared = CellSet()

    init(key: FactoryKey) {
        hash = key.hashBits
        name = key.name
        valueType = key.valueType
        parameterType = key.parameterType
        containerType = key.containerType
    }
}

extension GlobalStorage {
    #if SwiftConcurrency
    /// The storage FactoryTesting binds for the running test, if any.
    @TaskLocal package static var testStorage: GlobalStorage?
    #else
    /// Without the `SwiftConcurrency` trait there is no test storage.
    package static var testStorage: GlobalStorage? { nil }
    #endif

    /// The storage `Scope.singleton.reset()` resets: the running test's, else the process's.
    package static var current: GlobalStorage {
        testStorage ?? process
    }

    /// This storage's singletons, made if none were kept here yet; the storage's lock held.
    package var singletons: SingletonTable {
        contents(SingletonTable.self) { SingletonTable() }
    }

    /// This storage's singletons if any were kept here, read without a lock
    /// (see ``GlobalStorage/loadContents(_:)``).
    package var loadedSingletons: Unmanaged<SingletonTable>? {
        loadContents(SingletonTable.self)
    }
}
