import FactoryKit
import FactoryTestSupport
import Testing

// Factory 2.5 put a factory's main-actor isolation on the closure
// (`self { @MainActor in Model() }`); Factory 3 puts it on the property. Apps
// written for either compile here, and both spellings behave the same.

@MainActor final class TwoFiveSettingsModel {
    let name: String
    init(name: String = "live") { self.name = name }
}

@MainActor final class TwoFiveGreeter {
    let greeting: String
    init(_ name: String) { greeting = "Hello, \(name)" }
}

final class TwoFiveContainer: SharedContainer, Resolving {
    static let shared = TwoFiveContainer()
    let manager = ContainerManager()
}

extension TwoFiveContainer {
    // Factory 2.5's spelling: the isolation is on the closure, the property is nonisolated.
    var settings: Factory<TwoFiveSettingsModel> { self { @MainActor in TwoFiveSettingsModel() } }
    var formalSettings: Factory<TwoFiveSettingsModel> { Factory(self) { @MainActor in TwoFiveSettingsModel() } }
    var greeter: ParameterFactory<String, TwoFiveGreeter> { self { @MainActor name in TwoFiveGreeter(name) } }
    var testedSettings: Factory<TwoFiveSettingsModel> {
        self { @MainActor in TwoFiveSettingsModel() }
            .onTest { @MainActor in TwoFiveSettingsModel(name: "test") }
    }
    var cachedSettings: Factory<TwoFiveSettingsModel> { self { @MainActor in TwoFiveSettingsModel() }.cached }

    // Factory 3's spelling, in the same container.
    @MainActor var threeSettings: Factory<TwoFiveSettingsModel> { self { TwoFiveSettingsModel(name: "three") } }

    var asyncSettings: AsyncFactory<TwoFiveSettingsModel> {
        self { @MainActor in TwoFiveSettingsModel(name: "async") }
    }
}

@Suite struct FactoryTwoFiveSpellingTests {
    @MainActor @Test func aDefinitionWithAMainActorClosureResolvesOnTheMainActor() {
        let container = TwoFiveContainer()
        #expect(container.settings().name == "live")
        #expect(container.formalSettings().name == "live")
        #expect(container.greeter("Ada").greeting == "Hello, Ada")
        #expect(container.threeSettings().name == "three")
    }

    @MainActor @Test func registerTakesAMainActorClosure() {
        let container = TwoFiveContainer()
        container.settings.register { @MainActor in TwoFiveSettingsModel(name: "mock") }
        container.greeter.register { @MainActor name in TwoFiveGreeter("mock \(name)") }
        // The 3.x-spelled factory takes the 2.5-spelled registration too.
        container.threeSettings.register { @MainActor in TwoFiveSettingsModel(name: "mock three") }
        #expect(container.settings().name == "mock")
        #expect(container.greeter("Ada").greeting == "Hello, mock Ada")
        #expect(container.threeSettings().name == "mock three")
    }

    @MainActor @Test func registerDropsTheCachedInstanceBuiltByAMainActorClosure() {
        let container = TwoFiveContainer()
        let first = container.cachedSettings()
        #expect(container.cachedSettings() === first)
        container.cachedSettings.register { @MainActor in TwoFiveSettingsModel(name: "mock") }
        let second = container.cachedSettings()
        #expect(second !== first)
        #expect(second.name == "mock")
    }

    @MainActor @Test func contextOverridesTakeMainActorClosures() {
        let container = TwoFiveContainer()
        #expect(container.testedSettings().name == "test")
        container.settings.context(.test) { @MainActor in TwoFiveSettingsModel(name: "context") }
        #expect(container.settings().name == "context")
        container.greeter.onTest { @MainActor name in TwoFiveGreeter("test \(name)") }
        #expect(container.greeter("Ada").greeting == "Hello, test Ada")
    }

    @MainActor @Test func typeBasedRegistrationTakesAMainActorClosure() {
        let container = TwoFiveContainer()
        container.register { @MainActor in TwoFiveSettingsModel(name: "typed") }
        let resolved: TwoFiveSettingsModel? = container.resolve()
        #expect(resolved?.name == "typed")
    }

    @Test func aMainActorClosureResolvesOnTheMainActorFromElsewhere() async {
        let container = TwoFiveContainer()
        let model = await container.settings.resolveOnMainActor()
        let name = model.name
        #expect(name == "live")
    }

    @Test func anAsyncFactoryTakesAMainActorClosure() async throws {
        let model = try await TwoFiveContainer().asyncSettings()
        let name = model.name
        #expect(name == "async")
    }

    #if EXIT_TESTS
    @Test func aMainActorClosureResolvedOffTheMainActorStopsTheProgramNamingTheFactory() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = TwoFiveContainer().settings
            runOnAnotherThread { _ = factory() }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(offMainActorMessage("TwoFiveContainer.settings<TwoFiveSettingsModel>")))
    }
    #endif

    #if EXIT_TESTS
    @Test func aMainActorRegistrationResolvedOffTheMainActorStopsTheProgramNamingTheFactory() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = TwoFiveContainer()
            let factory = container.greeter.register { @MainActor name in TwoFiveGreeter(name) }
            runOnAnotherThread { _ = factory("Ada") }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(offMainActorMessage("TwoFiveContainer.greeter<TwoFiveGreeter>")))
    }
    #endif
}
