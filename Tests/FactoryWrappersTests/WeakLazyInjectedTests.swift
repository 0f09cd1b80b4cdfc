import FactoryTestSupport
import FactoryWrappers
import Testing

// The seed's circular chain, broken by a weak lazy back reference:
// A needs B, B needs C, and C only weakly refers back to A.
final class CircularA {
    @Injected(\.circularB) var circularB
    let released: Counter
    init(released: Counter) { self.released = released }
    deinit { released.increment() }
}

final class CircularB {
    @Injected(\.circularC) var circularC
}

final class CircularC {
    @WeakLazyInjected(\.circularA) var circularA: CircularA?
}

extension Container {
    var releasedAs: Factory<Counter> { self { Counter() }.cached }
    var circularA: Factory<CircularA> { self { CircularA(released: self.releasedAs()) }.shared }
    var circularB: Factory<CircularB> { self { CircularB() } }
    var circularC: Factory<CircularC> { self { CircularC() } }
}

private final class WeakHolder {
    @WeakLazyInjected(\.sharedService) var service
    @WeakLazyInjected(\.myService) var unique
    @WeakLazyInjected(\.answer) var answer
}

private struct SendableWeakHolder: Sendable {
    @WeakLazyInjected(\WrapperContainer.cachedCounted) var service
}

@Suite struct WeakLazyInjectedTests {
    @Test func resolvesOnFirstReadAndFollowsTheInstancesLifetime() {
        withFreshContainer { container in
            let holder = WeakHolder()
            #expect(holder.$service.resolvedOrNil() == nil)
            var strong: MyService? = container.sharedService()
            #expect(holder.service === strong)
            #expect(holder.$service.resolvedOrNil() === strong)
            strong = nil
            #expect(holder.service == nil)
            #expect(holder.$service.resolvedOrNil() == nil)
        }
    }

    @Test func isNilWhenNobodyElseHoldsTheInstance() {
        withFreshContainer { _ in
            let holder = WeakHolder()
            #expect(holder.unique == nil)
            #expect(holder.service == nil)
        }
    }

    @Test func valuesThatAreNotObjectsAreNeverHeld() {
        withFreshContainer { _ in
            #expect(WeakHolder().answer == nil)
        }
    }

    @Test func staysNilAfterTheInstanceIsGoneUntilResolvedAgain() {
        withFreshContainer { container in
            let holder = WeakHolder()
            do {
                let first = container.sharedService()
                #expect(holder.service === first)
            }
            #expect(holder.service == nil)
            let second = container.sharedService()
            #expect(holder.service == nil)
            #expect(holder.$service.resolve() === second)
            #expect(holder.service === second)
        }
    }

    @Test func resolveWithResetScopeResolvesANewInstance() {
        withFreshWrapperContainer { container in
            let holder = SendableWeakHolder()
            let first = holder.service
            #expect(first != nil)
            let second = holder.$service.resolve(reset: .scope)
            #expect(second != nil)
            #expect(second !== first)
            #expect(holder.service === container.cachedCounted())
        }
    }

    @Test func assigningHoldsTheNewValueWeakly() {
        withFreshContainer { _ in
            let holder = WeakHolder()
            var mine: MyService? = MyService(id: 3)
            holder.service = mine
            #expect(holder.service === mine)
            mine = nil
            #expect(holder.service == nil)
            #expect(holder.$service.resolvedOrNil() == nil)
        }
    }

    @Test func theProjectedFactoryIsTheContainersFactory() {
        withFreshContainer { container in
            #expect(WeakHolder().$service.factory.key == container.sharedService.key)
        }
    }

    @Test func theSeedChildFindsItsParentWithoutKeepingItAlive() {
        withFreshContainer { container in
            var parent: ServicesP? = container.servicesP()
            let child = parent!.service
            #expect(child.test() == "Parent")
            #expect(child.service === parent)
            parent = nil
            #expect(child.service == nil)
            #expect(child.test() == nil)
        }
    }

    @Test func aWeakBackReferenceBreaksTheCircularChain() {
        withFreshContainer { container in
            let released = container.releasedAs()
            var a: CircularA? = container.circularA()
            #expect(a?.circularB.circularC.circularA === a)
            a = nil
            #expect(released.value == 1)
        }
    }

    /// The factory's closure returns only once the other seven first reads wait in
    /// the property (as in LazyInjectedTests). The cached scope would build once even
    /// if every read resolved: the decorator counts the resolutions, and the build
    /// counts no resolution waiting for it.
    @Test func concurrentFirstReadsResolveExactlyOnce() {
        let container = WrapperContainer()
        let readers = Callers()
        let overlaps = Overlaps()
        let resolutions = Counter()
        container.cachedCounted.register {
            overlaps.wait("seven reads wait in the lazy property, none at the build") {
                readers.othersWaitInside(7) && container.manager.buildWaiters == 0
            }
            return MyService(id: container.builds.increment())
        }
        .decorator { _ in resolutions.increment() }
        let holder = WrapperContainer.$shared.withValue(container) { SendableWeakHolder() }
        let seen = Collector<Int>()
        runOnThreads(8) { _ in
            readers.enter()
            let id = holder.service?.id ?? -1
            readers.leave()
            seen.append(id)
        }
        overlaps.expect(1)
        #expect(resolutions.value == 1)
        #expect(container.builds.value == 1)
        #expect(seen.values == Array(repeating: 1, count: 8))
    }
}
