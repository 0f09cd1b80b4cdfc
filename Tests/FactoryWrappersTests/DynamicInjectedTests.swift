import FactoryTestSupport
import FactoryWrappers
import Testing

private final class DynamicHolder {
    @DynamicInjected(\WrapperContainer.counted) var service
    @DynamicInjected(\WrapperContainer.cachedCounted) var cached
}

private final class DynamicContainerHolder {
    @DynamicInjected(\.myService) var service
}

private actor DynamicActor {
    @DynamicInjected(\.myService) var service
    func serviceID() -> Int { service.id }
}

@Suite struct DynamicInjectedTests {
    @Test func resolvesOnEveryRead() {
        withFreshWrapperContainer { container in
            let holder = DynamicHolder()
            #expect(container.builds.value == 0)
            #expect(holder.service.id == 1)
            #expect(holder.service.id == 2)
            #expect(container.builds.value == 2)
        }
    }

    @Test func theScopeDecidesWhetherReadsShareAnInstance() {
        withFreshWrapperContainer { _ in
            let holder = DynamicHolder()
            #expect(holder.cached === holder.cached)
        }
    }

    @Test func anOverrideRegisteredAfterCreationIsUsedOnTheNextRead() {
        withFreshContainer { container in
            let holder = DynamicContainerHolder()
            #expect(holder.service is MyService)
            container.myService.register { MockService() }
            #expect(holder.service is MockService)
        }
    }

    @Test func resolveWithResetScopeBuildsANewCachedInstance() {
        withFreshWrapperContainer { _ in
            let holder = DynamicHolder()
            let first = holder.cached
            #expect(holder.$cached.resolve() === first)
            let second = holder.$cached.resolve(reset: .scope)
            #expect(second !== first)
            #expect(holder.cached === second)
        }
    }

    @Test func theProjectedValueRegistersAndResetsLikeAFactory() {
        withFreshContainer { container in
            let holder = DynamicContainerHolder()
            holder.$service.register { MockService(id: 5) }
            #expect(holder.service.id == 5)
            #expect(holder.$service().id == 5)
            #expect(container.myService().id == 5)
            holder.$service.reset()
            #expect(holder.service is MyService)
            #expect(holder.$service.factory.key == container.myService.key)
        }
    }

    @Test func worksInActorsAndAcrossThreads() async {
        let (worker, holder) = withFreshContainer { container in
            container.myService.register { MyService(id: 21) }
            return (DynamicActor(), DynamicInjected(\.myService))
        }
        #expect(await worker.serviceID() == 21)
        let seen = Collector<Int>()
        runOnThreads(4) { _ in seen.append(holder.wrappedValue.id) }
        #expect(seen.values == [21, 21, 21, 21])
    }
}
