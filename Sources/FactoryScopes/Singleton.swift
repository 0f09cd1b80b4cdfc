/// The process-wide scope. `Scope.singleton` is the one instance to use.
///
/// Its instances are shared by the containers that use the same singleton
/// storage (the process's; FactoryTesting's traits give each test its own), per
/// factory, and kept apart by where they come from: see ``ContainerManager``'s
/// singleton rules. `manager.reset(scope: .singleton)` does nothing, as in
/// Factory: a container does not own the singletons; use ``reset()``.
public final class Singleton: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in singleton storage.

    init() {
        super.init(strategy: SingletonStrategy())
    }

    /// Drops every singleton, so each is built again on its next resolution.
    ///
    /// Inside a FactoryTesting container trait this resets that test's singletons
    /// only. Singletons built from a registration made on one container are
    /// released the next time that factory resolves there, or with the registration.
    public func reset() {
        GlobalStorage.current.resetAll()
    }
}
