/// The process-wide scope. `Scope.singleton` is the one instance to use.
///
/// Its instances are shared by every container instance. FactoryTesting's
/// container trait gives each test its own singleton storage, which containers
/// created inside the test use.
public final class Singleton: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in ScopeStorage under its lock.

    init() {
        super.init(strategy: .singleton)
    }

    /// Drops every singleton, so each is built again on its next resolution.
    ///
    /// Inside a FactoryTesting container trait this resets that test's singletons only.
    public func reset() {
        ScopeStorage.currentSingletons.removeAll()
    }
}
