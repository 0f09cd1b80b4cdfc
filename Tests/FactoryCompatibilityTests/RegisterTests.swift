import FactoryKit
import FactoryTestSupport
import Testing

// Factory: `register { }` replaces a factory's closure in one container until it is
// reset, and drops the instance the factory had cached so that the next resolution
// uses the new closure.
@Suite struct RegisterTests {
    @Test func aRegistrationReplacesTheDefinition() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        #expect(container.weather().source == "registered")
    }

    @Test func theLatestRegistrationWins() {
        let container = Container()
        container.weather.register { MockWeather("first") }
        container.weather.register { MockWeather("second") }
        #expect(container.weather().source == "second")
    }

    @Test func registeringDropsTheCachedInstance() {
        let container = Container()
        let cached = container.cachedThing()
        #expect(container.cachedThing() === cached)
        container.cachedThing.register { Thing("registered") }
        let replaced = container.cachedThing()
        #expect(replaced !== cached)
        #expect(replaced.label == "registered")
    }

    @Test func aRegistrationKeepsTheDefinitionsScope() {
        let container = Container()
        container.cachedThing.register { Thing("registered") }
        let first = container.cachedThing()
        #expect(container.cachedThing() === first)
        #expect(first.label == "registered")
    }

    @Test func registeringASingletonDropsTheSingleton() {
        withIsolatedSingletons { isolate in
            let container = isolate(Container())
            let original = container.singletonThing()
            container.singletonThing.register { Thing("registered") }
            let replaced = container.singletonThing()
            #expect(replaced !== original)
            #expect(replaced.label == "registered")
            #expect(container.singletonThing() === replaced)
        }
    }

    @Test func aScopeChainedAfterRegisterPersists() {
        let container = Container()
        container.uniqueThing.register { Thing("registered") }.scope(.cached)
        let first = container.uniqueThing()
        #expect(first.label == "registered")
        #expect(container.uniqueThing() === first)
    }

    @Test func registerReturnsTheFactoryToResolveAtOnce() {
        let container = Container()
        let thing = container.uniqueThing.register { Thing("chained") }()
        #expect(thing.label == "chained")
    }

    @Test func aRegisteredClosureResolvesOtherFactoriesOfItsContainer() {
        let container = Container()
        container.weather.register { MockWeather("inner") }
        container.forecast.register { Forecast(weather: container.weather()) }
        #expect(container.forecast().weather.source == "inner")
    }

    @Test func registrationsOnSharedReachCodeThatResolvesThroughShared() {
        Container.$shared.withValue(Container()) {
            Container.shared.weather.register { MockWeather("shared") }
            #expect(resolve(\.weather).source == "shared")
            #expect(Container.shared.forecast().weather.source == "shared")
        }
    }
}
