import Dispatch
import FactoryKit
import FactoryTestSupport
import Testing

@MainActor final class ScreenModel {
    let weather: any WeatherProviding
    init(weather: any WeatherProviding) { self.weather = weather }
}

/// StorageActor's executor: a serial queue that marks the jobs it runs, so code
/// can tell at run time that it runs on the actor, not only that the compiler
/// thinks it does.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class StorageExecutor: SerialExecutor {
    static let shared = StorageExecutor()
    private static let marker = DispatchSpecificKey<Bool>()
    private let queue = DispatchQueue(label: "StorageActor")

    private init() {
        queue.setSpecific(key: Self.marker, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Whether the caller runs on this executor.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) == true
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@globalActor actor StorageActor {
    static let shared = StorageActor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        StorageExecutor.shared.asUnownedSerialExecutor()
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@StorageActor final class Storage {
    let name = "storage"
    /// Whether the initializer ran on StorageActor's executor.
    let builtOnTheActor = StorageExecutor.isCurrent
}

extension Container {
    // Factory 3: the closure of a main-actor property is a main-actor closure.
    @MainActor var screenModel: Factory<ScreenModel> { self { ScreenModel(weather: self.weather()) } }
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
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

    /// Checked at run time, by the executor the closure ran on.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func resolveOnGlobalActorRunsTheClosureOnThatActor() async {
        let container = Container()
        let factory = await container.storage
        #expect(!StorageExecutor.isCurrent)
        let storage = await factory.resolveOnGlobalActor(StorageActor.shared)
        #expect(storage.builtOnTheActor)
    }

    @MainActor @Test func aMainActorRegistrationIsAccepted() {
        let container = Container()
        container.screenModel.register { ScreenModel(weather: MockWeather("registered")) }
        #expect(container.screenModel().weather.source == "registered")
    }
}
