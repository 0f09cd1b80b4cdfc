import FactoryTestSupport
import FactoryWrappers

// Fixtures for the wrapper tests. Every test binds a fresh container of its own
// (`withFreshContainer`, `WrapperContainer.$shared.withValue`), so tests running in
// parallel never see each other's registrations or caches.

protocol MyServiceType: AnyObject, Sendable {
    var id: Int { get }
}

final class MyService: MyServiceType {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

final class MockService: MyServiceType {
    let id: Int
    init(id: Int = 99) { self.id = id }
}

extension Container {
    var myService: Factory<any MyServiceType> { self { MyService() } }
    var cachedService: Factory<any MyServiceType> { self { MyService() }.cached }
    var sharedService: Factory<MyService> { self { MyService() }.shared }
    var answer: Factory<Int> { self { 42 } }
    var optionalService: Factory<MyService?> { self { nil } }
}

/// A custom container whose `shared` is task-local, like ``Container``'s, so each
/// test can bind its own instance.
final class WrapperContainer: SharedContainer {
    @TaskLocal static var shared = WrapperContainer()
    let manager = ContainerManager()
    /// How often `counted` ran in this instance.
    let builds = Counter()

    var counted: Factory<MyService> { self { MyService(id: self.builds.increment()) } }
    var cachedCounted: Factory<MyService> { self { MyService(id: self.builds.increment()) }.cached }
}

/// A custom container written the way Factory's documentation writes one.
/// Only factories without caches or registrations are used on it, since its one
/// `shared` instance is common to every test.
final class PlainContainer: SharedContainer {
    static let shared = PlainContainer()
    let manager = ContainerManager()

    var label: Factory<String> { self { "plain" } }
}

/// Runs `body` with a new, empty `Container` bound as `Container.shared`.
func withFreshContainer<R>(_ body: (Container) throws -> R) rethrows -> R {
    let container = Container()
    return try Container.$shared.withValue(container) { try body(container) }
}

/// Runs `body` with a new `WrapperContainer` bound as `WrapperContainer.shared`.
func withFreshWrapperContainer<R>(_ body: (WrapperContainer) throws -> R) rethrows -> R {
    let container = WrapperContainer()
    return try WrapperContainer.$shared.withValue(container) { try body(container) }
}
