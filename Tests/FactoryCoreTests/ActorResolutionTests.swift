import FactoryCore
import FactoryTestSupport
import Testing

@MainActor final class MainActorModel {
    let value = 1
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
}
