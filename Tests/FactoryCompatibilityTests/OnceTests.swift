import FactoryKit
import FactoryTestSupport
import Testing

extension Container {
    // Factory's `once()` example: the modifiers before it apply the first time only.
    var onceWeather: Factory<any WeatherProviding> {
        self { WeatherService() }
            .cached
            .onTest { MockWeather("definition test") }
            .once()
    }
    // The same definition without `once()`.
    var everyTimeWeather: Factory<any WeatherProviding> {
        self { WeatherService() }
            .onTest { MockWeather("definition test") }
    }
}

// Factory: modifiers before `once()` apply only the first time the factory is
// built, so changes made later at run time stand.
@Suite struct OnceTests {
    @Test func theDefinitionsModifiersApply() {
        let container = Container()
        let first = container.onceWeather()
        #expect(first.source == "definition test")
        #expect(container.onceWeather() === first)
    }

    @Test func aLaterContextOverrideStands() {
        // As in Factory's example: the property is read (its definition applied
        // once), then the run-time override replaces the definition's.
        let container = Container()
        container.onceWeather.onTest { MockWeather("run-time test") }
        #expect(container.onceWeather().source == "run-time test")
        #expect(container.onceWeather().source == "run-time test")
    }

    @Test func aLaterScopeStands() {
        let container = Container()
        _ = container.onceWeather()
        container.onceWeather.scope(.unique)
        #expect(container.onceWeather() !== container.onceWeather())
    }

    @Test func aFullResetStartsOver() {
        let container = Container()
        container.onceWeather.onTest { MockWeather("run-time test") }
        container.onceWeather.reset()
        #expect(container.onceWeather().source == "definition test")
    }

    @Test func aRegistrationMadeWithOnceWinsOverTheDefinition() {
        let container = Container()
        container.uniqueThing.register { Thing("start-up") }.once()
        #expect(container.uniqueThing().label == "start-up")
    }
}
