import FactoryWrappers

/// Runs `body` with a singleton storage of its own, as FactoryTesting's trait
/// does for a test: containers passed through `isolate` keep their singletons
/// there, and `Scope.singleton.reset()` inside `body` resets it, so other suites
/// resetting the process's singletons cannot disturb the test and the test's
/// resets cannot disturb them.
public func withIsolatedSingletons<R>(_ body: (_ isolate: IsolatedSingletons) throws -> R) rethrows -> R {
    let isolated = IsolatedSingletons()
    return try SingletonStorage.$testStorage.withValue(isolated.storage) { try body(isolated) }
}

/// The storage of ``withIsolatedSingletons(_:)``.
public struct IsolatedSingletons: Sendable {
    let storage = SingletonStorage()

    /// `container`, keeping its singletons in this storage.
    public func callAsFunction<C: ManagedContainer>(_ container: C) -> C {
        container.manager.useSingletons(storage)
        return container
    }
}

/// A factory name compiled into this module, so that tests in other modules can
/// build keys whose equal names sit at different addresses.
public let supportModuleFactoryName: StaticString = "sharedFactoryName"
