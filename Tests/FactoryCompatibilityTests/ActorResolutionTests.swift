import FactoryKit
import FactoryTestSupport
import Testing

@MainActor final class ScreenModel {
    let weather: any WeatherProviding
    init(weather: any WeatherProviding) { self.weather = weather }
}

@globalActor actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor final class Storage {
    let name = "storage"
}

extension Container {
    // Factory 3: the closure of a main-actor property is a main-actor closure.
    @MainActor var screenModel: Factory<ScreenModel> { self { ScreenModel(weather: self.weather()) } }
    @StorageActor var storage: Factory<Storage> { self { Storage() } }
    @MainActor var titledScreen: ParameterFactory<String, ScreenModel> {
        self { ScreenModel(weather: MockWeather($0)) }
    }
}

// Factory: `resolveOnMainActor()` and `resolveOnGlobalActor(_:)` resolve a factory
// whose closure is isolated to that actor from any context.
@Suite struct ActorResolutionTests {
    @MainActor @Test func aMainActorFactoryResolvesOnTheMainActor() {
        let container = Container()
        container.weather.register { MockWeather("main") }
        #expect(container.screenModel().weather.source == "main")
    }

    @Test func resolveOnMainActorHopsThere() async {
        let container = Container()
        let factory = await container.screenModel
        let model = await factory.resolveOnMainActor()
        #expect(model.weather.source == "live")
    }

    @Test func aParameterFactoryResolvesOnTheMainActor() async {
        let container = Container()
        let factory = await container.titledScreen
        let model = await factory.resolveOnMainActor("titled")
        #expect(model.weather.source == "titled")
    }

    @Test func resolveOnGlobalActorRunsTheClosureOnThatActor() async {
        let container = Container()
        let factory = await container.storage
        let storage = await factory.resolveOnGlobalActor(StorageActor.shared)
        #expect(storage.name == "storage")
    }

    @MainActor @Test func aMainActorRegistrationIsAccepted() {
        let container = Container()
        container.screenModel.register { ScreenModel(weather: MockWeather("registered")) }
        #expect(container.screenModel().weather.source == "registered")
    }
}
