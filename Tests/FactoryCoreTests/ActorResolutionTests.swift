import FactoryCore
import FactoryTestSupport
import Testing

@MainActor final class MainActorModel {
    let value = 1
}

extension Container {
    /// Declared on the main actor: the closure inherits that isolation, as in Factory.
    @MainActor var mainModel: Factory<MainActorModel> { self { MainActorModel() } }
}

@globalActor actor BackgroundActor {
    static let shared = BackgroundActor()
}

@Suite struct ActorResolutionTests {
    @MainActor @Test func resolvesMainActorObjectsOnTheMainActor() {
        let container = Container()
        let model = Factory<MainActorModel>(container, key: "model") {
            MainActor.assumeIsolated { MainActorModel() }
        }
        #expect(model.resolveOnMainActor().value == 1)
    }

    @Test func resolvesOnAGlobalActor() async {
        let container = Container()
        let isolated = Factory<Int>(container, key: "isolated") {
            BackgroundActor.shared.assumeIsolated { _ in 5 }
        }
        #expect(await isolated.resolveOnGlobalActor(BackgroundActor.shared) == 5)
    }

    @MainActor @Test func aFactoryDeclaredOnTheMainActorResolvesThere() {
        let container = Container()
        #expect(container.mainModel().value == 1)
        container.mainModel.register { @MainActor in MainActorModel() }
        #expect(container.mainModel().value == 1)
    }

    @Test func aMainActorFactoryResolvesOnTheMainActorFromElsewhere() async {
        let container = Container()
        let factory = await MainActor.run { container.mainModel }
        let value = await factory.resolveOnMainActor().value
        #expect(value == 1)
    }

    #if EXIT_TESTS
    @Test func aMainActorClosureResolvedOffTheMainActorStopsTheProgramNamingTheFactory() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = await MainActor.run { Container().mainModel }
            runOnAnotherThread { _ = factory() }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(offMainActorMessage("Container.mainModel<MainActorModel>")))
    }
    #endif
}
