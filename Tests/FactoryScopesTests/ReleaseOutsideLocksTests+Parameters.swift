import FactoryScopes
import FactoryTestSupport
import Testing

// Parameter values kept as cache keys, and closures replaced in a container's
// options, are released after the library unlocks: their `deinit` is user code.
// Each object below takes the container's lock when it dies (reading an option
// does), so releasing it under that lock deadlocks.

final class ParameterReleaseContainer: ManagedContainer {
    let manager = ContainerManager()
    let deinits = Counter()
    var byKey: ParameterFactory<LockingKey, Thing> { self { _ in Thing() }.cached.scopeOnParameters }
    var expiringByKey: ParameterFactory<LockingKey, LockingCapture> {
        self { _ in LockingCapture(self) }.cached.timeToLive(0.01).scopeOnParameters
    }
    var asyncByKey: AsyncParameterFactory<LockingKey, Pool> { self { _ in Pool(serial: 1) }.cached.scopeOnParameters }
}

/// A parameter that takes its container's lock when it dies.
final class LockingKey: Hashable, @unchecked Sendable {
    // Immutable after init.
    let id: Int
    let container: ParameterReleaseContainer
    init(_ id: Int, _ container: ParameterReleaseContainer) {
        self.id = id
        self.container = container
    }
    deinit {
        _ = container.manager.trace
        container.deinits.increment()
    }
    static func == (lhs: LockingKey, rhs: LockingKey) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Something a closure captures that takes the container's lock when it dies.
final class LockingCapture: @unchecked Sendable {
    // Immutable after init.
    let container: ParameterReleaseContainer
    init(_ container: ParameterReleaseContainer) { self.container = container }
    deinit {
        _ = container.manager.trace
        container.deinits.increment()
    }
}

@Suite struct ReleaseOutsideLocksParameterTests {
    private func expectReleased(_ container: ParameterReleaseContainer, _ body: @escaping @Sendable () -> Void) {
        #expect(finishes(1) { _ in body() }, "a deadlock: a deinit ran under the container's lock")
        #expect(container.deinits.value == 1)
    }

    /// Caches an instance under a key that only the cache holds afterwards.
    private func cacheUnderAFreshKey(_ container: ParameterReleaseContainer) {
        _ = container.byKey(LockingKey(1, container))
    }

    @Test(arguments: ["manager.reset()", "reset(options: .scope)", "reset(scope: .cached)", "factory.reset(.scope)", "register"])
    func aParameterKeyDroppedByAReset(_ reset: String) {
        let container = ParameterReleaseContainer()
        cacheUnderAFreshKey(container)
        #expect(container.deinits.value == 0)
        expectReleased(container) {
            switch reset {
            case "manager.reset()": container.manager.reset()
            case "reset(options: .scope)": container.manager.reset(options: .scope)
            case "reset(scope: .cached)": container.manager.reset(scope: .cached)
            case "factory.reset(.scope)": container.byKey.reset(.scope)
            default: container.byKey.register { _ in Thing() }
            }
        }
    }

    @Test func aParameterKeyDroppedByAPop() {
        let container = ParameterReleaseContainer()
        container.manager.push()
        cacheUnderAFreshKey(container)
        expectReleased(container) { container.manager.pop() }
    }

    /// An equal key finds the expired entry: its instance is dropped (the entry
    /// keeps its key for the new one). The test holds both keys, so the one
    /// deinit is the expired instance's.
    @Test func anExpiredInstanceOfAParameterKey() {
        let container = ParameterReleaseContainer()
        let key = LockingKey(1, container)
        _ = container.expiringByKey(key)
        pause(milliseconds: 20)
        let equal = LockingKey(1, container)
        expectReleased(container) { _ = container.expiringByKey(equal) }
        _ = (key, equal)
    }

    @Test func anAsyncParameterKeyDroppedByAReset() async throws {
        let container = ParameterReleaseContainer()
        _ = try await container.asyncByKey(LockingKey(1, container))
        expectReleased(container) { container.manager.reset(options: .scope) }
    }

    @Test func aContainerDecoratorReplaced() {
        let container = ParameterReleaseContainer()
        let held = LockingCapture(container)
        container.decorator { [held] _ in _ = held }
        _ = consume held
        expectReleased(container) { container.decorator(nil) }
    }

    @Test func aLoggerReplaced() {
        let container = ParameterReleaseContainer()
        let held = LockingCapture(container)
        container.manager.logger = { [held] _ in _ = held }
        _ = consume held
        expectReleased(container) { container.manager.logger = { _ in } }
    }
}
