import FactoryTestSupport
import FactoryWrappers
import Testing

#if canImport(Observation)
import Observation
#endif

// The seed's view model, as Factory's README writes it.
private final class ContentViewModel {
    @Injected(\.myService) private var myService
    var serviceID: Int { myService.id }
}

#if canImport(Observation)
// The seed's Observation form; Observation ships with the Linux toolchain too.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@Observable
private final class ObservableContentViewModel {
    @ObservationIgnored
    @Injected(\.myService) private var myService
    var title = ""
    var serviceID: Int { myService.id }
}
#endif

private final class EagerHolder {
    @Injected(\WrapperContainer.counted) var service
}

private struct SendableRequest: Sendable {
    @Injected(\.myService) var service
    @Injected(\.answer) var answer
}

private actor EagerActor {
    @Injected(\.myService) var service
    func serviceID() -> Int { service.id }
    func reload() -> Int { $service.resolve().id }
}

@MainActor
private final class MainActorViewModel: Sendable {
    @Injected(\.myService) var service
    func reload() { $service.resolve() }
}

@Suite struct InjectedTests {
    @Test func theSeedViewModelResolvesItsService() {
        withFreshContainer { container in
            container.myService.register { MyService(id: 7) }
            #expect(ContentViewModel().serviceID == 7)
        }
    }

    #if canImport(Observation)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theSeedObservableViewModelResolvesItsService() {
        withFreshContainer { container in
            container.myService.register { MyService(id: 11) }
            #expect(ObservableContentViewModel().serviceID == 11)
        }
    }
    #endif

    @Test func resolvesWhenTheObjectIsCreated() {
        withFreshWrapperContainer { container in
            let holder = EagerHolder()
            #expect(container.builds.value == 1)
            _ = holder.service
            _ = holder.service
            #expect(container.builds.value == 1)
        }
    }

    @Test func resolvesFromACustomSharedContainer() {
        withFreshWrapperContainer { container in
            container.counted.register { MyService(id: 5) }
            #expect(EagerHolder().service.id == 5)
        }
        struct Labelled {
            @Injected(\PlainContainer.label) var label
        }
        #expect(Labelled().label == "plain")
    }

    @Test func resolvesFromAnExplicitFactory() {
        let container = Container()
        container.myService.register { MyService(id: 3) }
        struct Holder {
            @Injected var service: any MyServiceType
            init(container: Container) { _service = Injected(container.myService) }
        }
        #expect(Holder(container: container).service.id == 3)
    }

    @Test func anOverrideRegisteredBeforeCreationIsUsed() {
        withFreshContainer { container in
            container.myService.register { MockService() }
            #expect(ContentViewModel().serviceID == 99)
        }
    }

    @Test func anOverrideRegisteredAfterCreationWaitsForResolve() {
        withFreshContainer { container in
            struct Holder {
                @Injected(\.myService) var service
            }
            var holder = Holder()
            container.myService.register { MockService() }
            #expect(holder.service is MyService)
            holder.$service.resolve()
            #expect(holder.service is MockService)
        }
    }

    @Test func resolveWithResetScopeBuildsANewCachedInstance() {
        withFreshContainer { container in
            struct Holder {
                @Injected(\.cachedService) var service
            }
            var holder = Holder()
            let first = holder.service
            holder.$service.resolve()
            #expect(holder.service === first)
            let second = holder.$service.resolve(reset: .scope)
            #expect(second !== first)
            #expect(holder.service === second)
            #expect(container.cachedService() === second)
        }
    }

    @Test func resolveWithResetRegistrationDropsTheOverride() {
        withFreshContainer { container in
            container.myService.register { MockService() }
            struct Holder {
                @Injected(\.myService) var service
            }
            var holder = Holder()
            #expect(holder.service is MockService)
            holder.$service.resolve(reset: .registration)
            #expect(holder.service is MyService)
        }
    }

    @Test func theProjectedFactoryIsTheContainersFactory() {
        withFreshContainer { container in
            struct Holder {
                @Injected(\.myService) var service
            }
            let holder = Holder()
            #expect(holder.$service.factory.key == container.myService.key)
            holder.$service.factory.register { MockService(id: 12) }
            #expect(container.myService().id == 12)
        }
    }

    @Test func assigningReplacesTheValueForThisPropertyOnly() {
        withFreshContainer { container in
            struct Holder {
                @Injected(\.myService) var service
            }
            var holder = Holder()
            holder.service = MockService(id: 1)
            #expect(holder.service.id == 1)
            #expect(container.myService() is MyService)
        }
    }

    @Test func worksInSendableStructs() async {
        let request = withFreshContainer { container in
            container.myService.register { MyService(id: 4) }
            return SendableRequest()
        }
        let id = await Task.detached { request.service.id + request.answer }.value
        #expect(id == 46)
    }

    @Test func worksInActors() async {
        let (worker, container) = withFreshContainer { container in
            container.myService.register { MyService(id: 8) }
            return (EagerActor(), container)
        }
        #expect(await worker.serviceID() == 8)
        container.myService.register { MyService(id: 9) }
        #expect(await worker.reload() == 9)
    }

    @Test @MainActor func worksInMainActorClasses() {
        withFreshContainer { container in
            container.myService.register { MyService(id: 2) }
            let model = MainActorViewModel()
            #expect(model.service.id == 2)
            container.myService.register { MyService(id: 3) }
            model.reload()
            #expect(model.service.id == 3)
        }
    }

    @Test func aSendableClassResolvesIntoALetInstead() {
        final class Handler: Sendable {
            let service = Container.shared.myService()
        }
        withFreshContainer { container in
            container.myService.register { MyService(id: 6) }
            #expect(Handler().service.id == 6)
        }
    }
}
