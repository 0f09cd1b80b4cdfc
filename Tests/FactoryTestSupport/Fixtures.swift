import FactoryWrappers
import Testing

extension ManagedContainer {
    /// For the closure of a cached factory that many threads resolve at once:
    /// returns once exactly `count` resolutions from this container wait for a build
    /// another one runs (``ContainerManager/buildWaiters``), or `false` when
    /// ``overlapBound`` passed first. A closure that waits for them before it returns
    /// makes the overlap a test names certain rather than likely after a pause, and
    /// what it returns lets the test check that the overlap happened.
    public func buildWaitersReach(_ count: Int) -> Bool {
        poll(upTo: overlapBound) { manager.buildWaiters == count }
    }
}

/// Runs `body` with a singleton storage of its own, as FactoryTesting's trait
/// does for a test: containers passed through `isolate` keep their singletons
/// there, and `Scope.singleton.reset()` inside `body` resets it, so other suites
/// resetting the process's singletons cannot disturb the test and the test's
/// resets cannot disturb them.
public func withIsolatedSingletons<R>(_ body: (_ isolate: IsolatedSingletons) throws -> R) rethrows -> R {
    let isolated = IsolatedSingletons()
    return try GlobalStorage.$testStorage.withValue(isolated.storage) { try body(isolated) }
}

/// The storage of ``withIsolatedSingletons(_:)``.
public struct IsolatedSingletons: Sendable {
    let storage = GlobalStorage()

    /// `container`, keeping its singletons in this storage.
    public func callAsFunction<C: ManagedContainer>(_ container: C) -> C {
        container.manager.useGlobalStorage(storage)
        return container
    }
}

/// A factory name compiled into this module, so that tests in other modules can
/// build keys whose equal names sit at different addresses.
public let supportModuleFactoryName: StaticString = "sharedFactoryName"

/// The ways a user drops a `.cached` factory's instance (and outdates a build of
/// it under way), for tests that check each one.
public enum CacheReset: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case managerReset = "manager.reset()"
    case resetScopeOption = "reset(options: .scope)"
    case resetCachedScope = "reset(scope: .cached)"
    case factoryReset = "factory.reset(.scope)"
    case pop = "pop()"

    /// The reset as a user writes it, naming the test case.
    public var testDescription: String { rawValue }

    /// Call before the factory is resolved: `pop()` needs something to pop to.
    public func prepare(_ manager: ContainerManager) {
        if self == .pop { manager.push() }
    }

    /// Performs the reset on `manager`; `resetFactory` resets the factory itself.
    public func perform(on manager: ContainerManager, resetFactory: () -> Void) {
        switch self {
        case .managerReset: manager.reset()
        case .resetScopeOption: manager.reset(options: .scope)
        case .resetCachedScope: manager.reset(scope: .cached)
        case .factoryReset: resetFactory()
        case .pop: manager.pop()
        }
    }
}
