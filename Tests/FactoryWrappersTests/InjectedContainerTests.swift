import FactoryTestSupport
import FactoryWrappers
import Testing

private final class Router {
    @InjectedContainer var inferred
    @InjectedContainer var container: Container
    @InjectedContainer(WrapperContainer.self) var wrappers
    @InjectedContainer var annotated: WrapperContainer
}

@MainActor
private final class MainActorRouter {
    @InjectedContainer var container: Container
}

@Suite struct InjectedContainerTests {
    @Test func capturesTheSharedContainersWhenTheObjectIsCreated() {
        let wrappers = WrapperContainer()
        let (router, container) = WrapperContainer.$shared.withValue(wrappers) {
            withFreshContainer { container in (Router(), container) }
        }
        #expect(router.inferred === container)
        #expect(router.container === container)
        #expect(router.wrappers === wrappers)
        #expect(router.annotated === wrappers)
    }

    @Test func aCapturedContainerResolvesItsFactories() {
        withFreshContainer { container in
            container.myService.register { MockService(id: 4) }
            let router = Router()
            #expect(router.container.myService().id == 4)
        }
    }

    @Test func assigningReplacesTheContainer() {
        let router = Router()
        let other = Container()
        router.container = other
        #expect(router.container === other)
    }

    @Test @MainActor func worksInMainActorClasses() {
        withFreshContainer { container in
            #expect(MainActorRouter().container === container)
        }
    }
}
