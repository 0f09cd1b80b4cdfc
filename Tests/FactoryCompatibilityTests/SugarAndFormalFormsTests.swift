import FactoryKit
import FactoryTestSupport
import Testing

// Factory: a factory is a computed property of a container; `self { ... }` (the
// sugar) and `Factory(self) { ... }` (the formal form) define the same thing, and
// `ParameterFactory` takes a parameter at resolution.
@Suite struct SugarAndFormalFormsTests {
    @Test func theSugarFormBuildsANewInstanceOnEveryCall() {
        let container = Container()
        let first = container.weather()
        let second = container.weather()
        #expect(first.source == "live")
        #expect(first !== second)
    }

    @Test func callingAFactoryAndAskingItToResolveAreTheSame() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        #expect(container.weather().source == "registered")
        #expect(container.weather.resolve().source == "registered")
    }

    @Test func theFormalFormBehavesLikeTheSugarForm() {
        let container = Container()
        #expect(container.formalWeather().source == "live")
        #expect(container.formalWeather() !== container.formalWeather())
        container.formalWeather.register { MockWeather() }
        #expect(container.formalWeather().source == "mock")
        container.formalWeather.reset()
        #expect(container.formalWeather().source == "live")
    }

    @Test func aRegistrationOutlivesTheFactoryValueItWasMadeOn() {
        // The property builds a new Factory value on each read; what a registration
        // changes is kept by the container, under the factory's key.
        let container = Container()
        let before = container.weather
        container.weather.register { MockWeather() }
        #expect(before().source == "mock")
        #expect(container.weather().source == "mock")
    }

    @Test func aFactoryResolvesItsDependenciesFromItsOwnContainer() {
        let mocked = Container()
        mocked.weather.register { MockWeather("injected") }
        #expect(mocked.forecast().weather.source == "injected")
        #expect(Container().forecast().weather.source == "live")
    }

    @Test func twoContainerInstancesKeepTheirOwnRegistrations() {
        let first = Container()
        let second = Container()
        first.weather.register { MockWeather("first") }
        #expect(first.weather().source == "first")
        #expect(second.weather().source == "live")
    }

    @Test func twoContainerTypesWithTheSameFactoryNameNeverCollide() {
        let container = Container()
        let feature = FeatureContainer()
        container.weather.register { MockWeather("container") }
        #expect(feature.weather().source == "feature")
        #expect(container.weather.key != feature.weather.key)
        #expect(container.weather.key == Container().weather.key)
    }

    @Test func aFactoryCanBeMadeInlineWithAnExplicitKey() {
        let container = Container()
        let inline = Factory<Thing>(container, key: "inline") { Thing("inline") }
        #expect(inline().label == "inline")
        inline.register { Thing("registered") }
        #expect(Factory<Thing>(container, key: "inline") { Thing("other definition") }().label == "registered")
    }
}

@Suite struct ParameterFactoryTests {
    @Test func theParameterReachesTheClosure() {
        let container = Container()
        #expect(container.greeting("Ada").name == "Ada")
        #expect(container.greeting.resolve("Grace").name == "Grace")
        #expect(container.formalGreeting("Linus").name == "Linus")
    }

    @Test func severalValuesTravelAsATuple() {
        let container = Container()
        #expect(container.pairGreeting(("Ada", 36)).name == "Ada 36")
    }

    @Test func aRegistrationReceivesTheParameter() {
        let container = Container()
        container.greeting.register { Greeting("mock \($0)") }
        #expect(container.greeting("Ada").name == "mock Ada")
        container.greeting.reset()
        #expect(container.greeting("Ada").name == "Ada")
    }

    @Test func aParameterFactoryIsUniqueByDefault() {
        let container = Container()
        #expect(container.greeting("Ada") !== container.greeting("Ada"))
    }

    @Test func aCachedParameterFactoryKeepsTheFirstParameter() {
        // Factory: without scopeOnParameters, later parameters are ignored until the cache is reset.
        let container = Container()
        let first = container.cachedGreeting("Ada")
        let second = container.cachedGreeting("Grace")
        #expect(second === first)
        #expect(second.name == "Ada")
        container.cachedGreeting.reset(.scope)
        #expect(container.cachedGreeting("Grace").name == "Grace")
    }

    @Test func globalResolveTakesTheParameter() {
        let container = Container()
        container.greeting.register { Greeting("shared \($0)") }
        Container.$shared.withValue(container) {
            #expect(resolve(\.greeting, parameter: "Ada").name == "shared Ada")
        }
    }
}
