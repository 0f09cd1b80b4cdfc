import FactoryScopes
import FactoryTestSupport
import Testing

// Instances and closures the library drops are released after it unlocks: a
// `deinit` is user code, and one that resolves from the same container must
// neither deadlock nor see a half-done change. Each test releases such an
// object through one path, on a watchdog thread.

/// Resolves from `container` when it dies.
final class ResolvesOnDeinit: @unchecked Sendable {
    // Set once before the object is shared.
    let container: ReentrantContainer
    init(_ container: ReentrantContainer) { self.container = container }
    deinit {
        _ = container.plain()
        _ = container.cachedPlain()
        container.deinits.increment()
    }
}

final class ReentrantContainer: ManagedContainer {
    let manager = ContainerManager()
    let deinits = Counter()
    var plain: Factory<Thing> { self { Thing() } }
    var cachedPlain: Factory<Thing> { self { Thing() }.cached }
    var cached: Factory<ResolvesOnDeinit> { self { ResolvesOnDeinit(self) }.cached }
    var expiring: Factory<ResolvesOnDeinit> { self { ResolvesOnDeinit(self) }.cached.timeToLive(0.01) }
    var single: Factory<ResolvesOnDeinit> { self { ResolvesOnDeinit(self) }.singleton }
    var graphed: Factory<ResolvesOnDeinit> { self { ResolvesOnDeinit(self) }.graph }
    var graphRoot: Factory<Thing> {
        self {
            _ = self.graphed()
            _ = self.graphed()
            return Thing()
        }
    }
}

@Suite struct ReleaseOutsideLocksTests {
    private func expectReleased(_ container: ReentrantContainer, count: Int = 1, _ body: @escaping @Sendable () -> Void) {
        #expect(finishes(1) { _ in body() }, "a deadlock")
        #expect(container.deinits.value == count)
    }

    @Test func aContainerReset() {
        let container = ReentrantContainer()
        _ = container.cached()
        expectReleased(container) { container.manager.reset() }
    }

    @Test func aScopeReset() {
        let container = ReentrantContainer()
        _ = container.cached()
        expectReleased(container) { container.manager.reset(scope: .cached) }
    }

    @Test func aFactoryReset() {
        let container = ReentrantContainer()
        _ = container.cached()
        expectReleased(container) { container.cached.reset(.scope) }
    }

    @Test func aRegisterReplacingTheInstance() {
        let container = ReentrantContainer()
        _ = container.cached()
        expectReleased(container) { container.cached.register { ResolvesOnDeinit(container) } }
    }

    /// Registers a closure that is the only owner of `held` (no local variable of the test keeps it).
    private func registerHolding(_ held: ResolvesOnDeinit, in container: ReentrantContainer) {
        container.plain.register { [held] in
            _ = held
            return Thing()
        }
    }

    @Test func aRegisterReplacingAClosureThatHeldTheObject() {
        let container = ReentrantContainer()
        registerHolding(ResolvesOnDeinit(container), in: container)
        expectReleased(container) { container.plain.register { Thing() } }
    }

    @Test func aPop() {
        let container = ReentrantContainer()
        container.manager.push()
        _ = container.cached()
        expectReleased(container) { container.manager.pop() }
    }

    @Test func anExpiredTimeToLiveInstance() {
        let container = ReentrantContainer()
        _ = container.expiring()
        pause(milliseconds: 20)
        expectReleased(container) { _ = container.expiring() }
    }

    @Test func aSingletonReset() {
        withIsolatedSingletons { isolate in
            let container = isolate(ReentrantContainer())
            _ = container.single()
            expectReleased(container) { container.manager.reset(options: .singletons) }
        }
    }

    /// The end of a resolution cycle releases its graph instances; their deinit
    /// resolves again, starting a new cycle on the same thread's context.
    @Test func graphInstancesAtTheEndOfACycle() {
        let container = ReentrantContainer()
        expectReleased(container, count: 50) {
            for _ in 0..<50 { _ = container.graphRoot() }
        }
    }
}
