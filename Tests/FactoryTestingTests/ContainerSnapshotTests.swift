import FactoryTestSupport
import Testing

@testable import FactoryTesting

/// A container whose start-up registrations come from `autoRegister()`.
final class AutoOrders: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()
    var checkout: Factory<String> { self { "definition" } }

    func autoRegister() {
        checkout.register { "auto" }
    }
}

@Suite(.container) struct ContainerSnapshotTests {
    @Test func restoreBringsBackRegistrationsOptionsCachesAndSingletons() {
        // The trait's container: its singletons live in the test's storage, which `Scope.singleton.reset()` resets.
        let container = Container.shared
        container.greeter.register { MockGreeter(name: "before") }
        let cached = container.cachedBox()
        let singleton = container.singletonBox()
        let snapshot = ContainerSnapshot(of: container)

        container.greeter.register { MockGreeter(name: "during") }
        container.number.register { 1 }
        container.label.onTest { MockGreeter(name: "context \($0)") }
        container.manager.trace = true
        container.manager.logger = { _ in }
        container.manager.defaultScope = .cached
        container.manager.push()
        container.cachedBox.reset(.scope)
        #expect(container.cachedBox() !== cached)
        Scope.singleton.reset()
        #expect(container.singletonBox() !== singleton)
        container.enableStrictMode()

        snapshot.restore()
        #expect(container.greeter().name == "before")
        #expect(container.number() == 0)
        #expect(container.label("x").name == "x")
        #expect(!container.manager.trace)
        #expect(container.manager.defaultScope == nil)
        #expect(container.manager.lock.withLock { container.manager.state.stack.isEmpty })
        #expect(!container.isStrictModeEnabled)
        #expect(container.cachedBox() === cached)
        #expect(container.singletonBox() === singleton)
    }

    @Test func aSnapshotCanBeRestoredMoreThanOnce() {
        let container = Container()
        let snapshot = ContainerSnapshot(of: container)
        for round in 1...3 {
            container.number.register { round }
            #expect(container.number() == round)
            snapshot.restore()
            #expect(container.number() == 0)
        }
    }

    @Test func autoRegistrationsArePartOfTheSnapshot() {
        let container = AutoOrders()
        let snapshot = ContainerSnapshot(of: container)
        container.checkout.register { "mock" }
        #expect(container.checkout() == "mock")
        snapshot.restore()
        // autoRegister() ran before the snapshot; its registration came back.
        #expect(container.checkout() == "auto")
    }

    // The next two keep their singletons in a storage of their own: restoring a
    // storage puts back every singleton in it, so with the process's storage one
    // test's restore would drop what another test, running alongside, had built.

    @Test func severalContainersAreSavedTogether() {
        withIsolatedSingletons { isolate in
            let first = isolate(Container())
            let second = isolate(TaskLocalOrders())
            let singleton = first.singletonBox()
            let snapshot = ContainerSnapshot(of: first, second)
            first.number.register { 1 }
            second.checkout.register { "mock" }
            second.receipt.register { Box(id: 2) }
            first.singletonBox.register { Box(id: 1) }
            _ = second.receipt()
            snapshot.restore()
            #expect(first.number() == 0)
            #expect(second.checkout() == "live checkout")
            #expect(second.receipt().id == 0)
            #expect(first.singletonBox() === singleton)
        }
    }

    @Test func droppingChangedOwnKeysLeavesOtherContainersSingletonsAlone() {
        withIsolatedSingletons { isolate in
            let orders = isolate(StaticOrdersLike())
            let other = isolate(Container())
            let otherSingleton = other.singletonBox()
            let untouched = orders.untouched()
            let snapshot = ContainerSnapshot(of: [orders], singletons: .dropChangedOwnKeys)
            orders.receipt.register { Box(id: 9) }
            #expect(orders.receipt().id == 9)
            snapshot.restore()
            #expect(other.singletonBox() === otherSingleton)
            #expect(orders.untouched() === untouched)
            #expect(orders.receipt().id == 0)
        }
    }
}

/// A container type of its own, so its singleton keys differ from `Container`'s.
final class StaticOrdersLike: ManagedContainer {
    let manager = ContainerManager()
    var receipt: Factory<Box> { self { Box() }.singleton }
    var untouched: Factory<Box> { self { Box() }.singleton }
}
