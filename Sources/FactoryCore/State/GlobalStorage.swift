/// Instances kept beyond one container, for every container that uses this
/// storage: the process's (``process``, every container's to begin with), or a
/// test's under FactoryTesting's container traits.
///
/// FactoryCore knows which storage a container uses and its lock, and tells it
/// what happened to a factory (a `register`, a reset, a shutdown); what is kept
/// here and what each event drops is the strategy's (``GlobalStorageContents``):
/// FactoryScopes' singleton strategy keeps its singletons in ``contents``, made
/// the first time it is asked for.
///
/// Builds and resets take ``lock`` after the manager's lock when both are needed,
/// never the other way round.
@usableFromInline
package final class GlobalStorage: @unchecked Sendable {
    // Sendable because `publishedContents` is atomic, and `contents` is guarded
    // by `lock` (written once, with the reference, under it).

    /// Guards everything kept here.
    package let lock = FactoryLock(owner: GlobalStorage.self)
    /// `contents` for lock-free readers; `nil` while none was made.
    private let publishedContents = OwnedAtomicReference<AnyObject>()
    /// What the strategy keeps here; `nil` until the strategy first made it.
    private var contents: (any GlobalStorageContents)?

    package init() {}

    /// The process's storage.
    package static let process = GlobalStorage()

    /// The contents, made by `make` if this is the first request; `lock` held.
    /// Stops the program if contents of another type were made before: a
    /// storage keeps one strategy's instances.
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

    /// The contents if they were made, without a lock, unretained: valid inside
    /// a read section while a container uses this storage (contents, once made,
    /// live as long as the storage). `nil` for contents of another type.
    package func loadContents<Contents: GlobalStorageContents>(_ type: Contents.Type) -> Unmanaged<Contents>? {
        guard let object = publishedContents.load() else { return nil }
        return object._withUnsafeGuaranteedRef { ($0 as? Contents).map { Unmanaged.passUnretained($0) } }
    }

    /// Drops everything kept here.
    package func resetAll() {
        var garbage = Garbage()
        var found: [ShutdownItem] = []
        removeAll(collectingShutdowns: &found, &garbage)
        garbage.release()
    }

    /// Drops everything kept here, adding what a factory declared a shutdown for
    /// to `found`; what is dropped goes to `garbage`.
    package func removeAll(collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage) {
        lock.withLock { contents?.removeAll(collectingShutdowns: &found, &garbage) }
    }

    /// Tells the contents that a `register` on one container replaced `key`'s
    /// definition there. Manager lock held.
    package func registered(_ key: FactoryKey, _ garbage: inout Garbage) {
        lock.withLock { contents?.registered(key, &garbage) }
    }

    /// Tells the contents that `key`'s cached instances were reset. Manager lock held, if any.
    package func reset(_ key: FactoryKey, _ garbage: inout Garbage) {
        lock.withLock { contents?.reset(key, &garbage) }
    }
}

/// What a strategy keeps in a ``GlobalStorage``: what it drops when a container
/// registers, resets or shuts down. Every method runs with the storage's lock
/// held, and what it drops goes to `garbage`.
package protocol GlobalStorageContents: AnyObject, Sendable {
    /// Drops everything, adding each instance whose factory declared a shutdown to `found`.
    func removeAll(collectingShutdowns found: inout [ShutdownItem], _ garbage: inout Garbage)

    /// A `register` on one container replaced `key`'s definition there.
    func registered(_ key: FactoryKey, _ garbage: inout Garbage)

    /// `key`'s cached instances were reset (the factory's `reset(.scope)`).
    func reset(_ key: FactoryKey, _ garbage: inout Garbage)
}
