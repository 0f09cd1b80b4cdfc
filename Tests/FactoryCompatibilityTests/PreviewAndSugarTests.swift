import FactoryKit
import FactoryTestSupport
import Testing

// Factory 3's set-up sugar, as a Factory 3.2 app's non-UI code uses it: `preview { }`
// on factories and containers, registration by calling a factory with a closure
// (`container.weather { MockWeather() }`), and the container transform
// (`container { $0.weather { ... } }`). Each is `register` under another name. Here,
// without SwiftUI, each returns the factory or the container; where SwiftUI exists
// they return an `EmptyView`, as in Factory (Tests/SwiftUIStandIns checks those).
@Suite struct PreviewAndSugarTests {
    @Test func callingAFactoryWithAClosureRegistersIt() {
        let container = Container()
        container.weather { MockWeather("sugar") }
        #expect(container.weather().source == "sugar")
    }

    @Test func callingAFactoryWithNoClosureStillResolves() {
        let container = Container()
        let returned = container.weather { MockWeather("sugar") }
        #expect(returned().source == "sugar")
        #expect(container.weather.resolve().source == "sugar")
    }

    @Test func theSugarDropsTheCachedInstanceAsRegisterDoes() {
        let container = Container()
        let cached = container.cachedThing()
        container.cachedThing { Thing("sugar") }
        let replaced = container.cachedThing()
        #expect(replaced !== cached)
        #expect(replaced.label == "sugar")
        #expect(container.cachedThing() === replaced, "the definition's scope stays")
    }

    @Test func callingAParameterFactoryWithAClosureRegistersIt() {
        let container = Container()
        container.greeting { Greeting("sugar \($0)") }
        #expect(container.greeting("Ada").name == "sugar Ada")
    }

    @Test func previewRegistersOnAFactoryAndAParameterFactory() {
        let container = Container()
        container.weather.preview { MockWeather("preview") }
        container.greeting.preview { Greeting("preview \($0)") }
        #expect(container.weather().source == "preview")
        #expect(container.greeting("Ada").name == "preview Ada")
    }

    @Test func theContainerTransformRegistersWithTheSugar() {
        let container = Container()
        container {
            $0.weather { MockWeather("transform") }
            $0.uniqueThing.register { Thing("transform") }
        }
        #expect(container.weather().source == "transform")
        #expect(container.uniqueThing().label == "transform")
    }

    @Test func theSharedContainerIsTransformedInPlace() {
        Container.$shared.withValue(Container()) {
            Container.shared { $0.weather { MockWeather("shared") } }
            #expect(Container.shared.weather().source == "shared")
            #expect(Container.shared.forecast().weather.source == "shared")
        }
    }

    @available(*, deprecated, message: "calls the deprecated container forms of preview")
    @Test func theDeprecatedContainerFormsOfPreviewRegister() {
        Container.$shared.withValue(Container()) {
            let returned = Container.preview { $0.weather { MockWeather("static") } }
            #expect(returned === Container.shared)
            #expect(Container.shared.weather().source == "static")
        }
        let container = Container()
        #expect(container.preview { $0.weather { MockWeather("instance") } } === container)
        #expect(container.weather().source == "instance")
    }

    @Test func aMainActorClosureRegistersWithEachForm() async {
        let container = Container()
        container.weather { @MainActor in MockWeather("main sugar") }
        #expect(await container.weather.resolveOnMainActor().source == "main sugar")
        container.greeting.preview { @MainActor in Greeting("main preview \($0)") }
        #expect(await MainActor.run { container.greeting("Ada").name } == "main preview Ada")
    }

    @Test func theSugarPersistsLikeRegisterUntilReset() {
        let container = Container()
        container.weather { MockWeather("sugar") }
        container.weather.reset()
        #expect(container.weather().source == "live")
    }
}
