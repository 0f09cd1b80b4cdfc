/// Instances kept beyond one container: the process's (``process``) or a test's (FactoryTesting's
/// container traits). FactoryCore tells it what happened to a factory; what is kept and what each
/// event drops is the strategy's (``GlobalStorageContents``, FactoryScopes' singletons).
///
/// Lock order: ``lock`` after the manager's lock when both are needed, never the other way round.
@usableFromInline
package final class GlobalStorage: @unchecked Sendable {
    // Sendable: `publishedContents` is atomic; `contents` is guarded by `lock` (written once, under it).

    package let lock = FactoryLock(owner: GlobalStorage.self)
    private let publishedContents = OwnedAtomicReference<AnyObject>()  // `contents`, for lock-free readers
    private var contents: (any GlobalStorageContents)?

    package init() {}

    package static let process = GlobalStorage()

    /// Made by `make` on the first request; `lock` held. Stops the program if contents of another
    /// type were made before: a storage keeps one strategy's instances.
    package func contents<Contents: GlobalStorageContents>(_ type: Contents.Type, orMake make: () -> Contents) -> Contents {
        if let contents {
            // Only FactoryScopes' singleton strategy makes contents, of one type.
            guard let typed = contents as? Contents else {
                preconditionFailure("FactoryCore: a global storage holds \(Swift.type(of: contents)), not \(Contents.self)")
            }
            return typed
        }
        let made = make()
        contents = made
        publishedContents.exchange(made)
        return made
    }

    /// Lock-free and unretained: valid inside a read section while a container uses this storage
    /// (contents live as long as it). `nil` for contents of another type.
    package func loadContents<Contents: GlobalStorageContents>(_ type: Contents.Type) -> Unmanaged<Contents>? {
        guard let object = publishedContents.load() else { return nil }
        return object._withUnsafeGuaranteedRef { ($0 as? Contents).map { Unmanaged.passUnretained($0) } }
    }

    package func resetAll() {
        var garbage = Garbage()
        var found: [ShutdownItem] = []
        removeAll(collectingShutdowns: &found, &garbage)
        garbage.release()
    }

    package func removeAll(collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage) {
        lock.withLock { contents?.removeAll(collectingShutdowns: &found, &garbage) }
    }

    package func registered(_ key: FactoryKey, _ garbage: inout Garbage) {  // manager lock held
        lock.withLock { contents?.registered(key, &garbage) }
    }

    package func reset(_ key: FactoryKey, _ garbage: inout Garbage) {  // manager lock held, if any
        lock.withLock { contents?.reset(key, &garbage) }
    }
}

/// What a strategy keeps in a ``GlobalStorage``. Every method runs with the storage's lock held;
/// what it drops goes to `garbage`.
package protocol GlobalStorageContents: AnyObject, Sendable {
    func removeAll(collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage)

    /// A `register` on one container replaced `key`'s definition there.
    func registered(_ key: FactoryKey, _ garbage: inout Garbage)

    func reset(_ key: FactoryKey, _ garbage: inout Garbage)  // the factory's `reset(.scope)`
}
