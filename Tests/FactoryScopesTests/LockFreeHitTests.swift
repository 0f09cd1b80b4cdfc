import FactoryScopes
import FactoryTestSupport
import Testing

// A cache hit takes no lock, also when the container has a default scope and a
// decorator: each test holds the container's lock while another thread hits.

final class LockFreeHitContainer: ManagedContainer {
    let manager = ContainerManager()
    var unscoped: Factory<Thing> { self { Thing() } }
    var cached: Factory<Thing> { self { Thing() }.cached }
}

@Suite struct LockFreeHitTests {
    /// Whether `resolve` finishes on another thread while this thread holds `container`'s lock.
    private func finishesWhileLocked(_ container: LockFreeHitContainer, _ resolve: @escaping @Sendable () -> Void) -> Bool {
        container.manager.lock.lock()
        defer { container.manager.lock.unlock() }
        return finishes(1) { _ in resolve() }
    }

    @Test func aHitUnderTheContainersDefaultScope() {
        let container = LockFreeHitContainer()
        container.manager.defaultScope = .cached
        let first = container.unscoped()
        let same = Collector<Bool>()
        #expect(finishesWhileLocked(container) { same.append(container.unscoped() === first) })
        #expect(same.values == [true])
    }

    @Test func aHitWithAContainerDecorator() {
        let container = LockFreeHitContainer()
        let decorated = Counter()
        container.decorator { _ in decorated.increment() }
        let first = container.cached()
        let same = Collector<Bool>()
        #expect(finishesWhileLocked(container) { same.append(container.cached() === first) })
        #expect(same.values == [true])
        #expect(decorated.value == 2)
    }

    @Test func aReplacedDecoratorIsTheOneCalled() {
        let container = LockFreeHitContainer()
        let first = Counter()
        let second = Counter()
        container.decorator { _ in first.increment() }
        _ = container.cached()
        container.decorator { _ in second.increment() }
        _ = container.cached()
        container.decorator(nil)
        _ = container.cached()
        #expect(first.value == 1)
        #expect(second.value == 1)
    }
}
