import FactoryKit
import FactoryTestSupport
import Testing

// Factory's global `resolve(\.x)`: resolves a factory of `Container.shared`, or of a
// custom shared container named in the key path.
@Suite struct GlobalResolveTests {
    @Test func resolvesFromTheSharedContainer() {
        let container = Container()
        container.weather.register { MockWeather("global") }
        Container.$shared.withValue(container) {
            #expect(resolve(\.weather).source == "global")
            #expect(resolve(\.forecast).weather.source == "global")
        }
    }

    @Test func resolvesFromACustomSharedContainer() {
        #expect(resolve(\FeatureContainer.weather).source == "feature")
    }

    @Test func resolvesAParameterFactory() {
        Container.$shared.withValue(Container()) {
            #expect(resolve(\.greeting, parameter: "Ada").name == "Ada")
        }
    }

    @Test func honoursTheFactorysScope() {
        Container.$shared.withValue(Container()) {
            #expect(resolve(\.cachedThing) === resolve(\.cachedThing))
            #expect(resolve(\.uniqueThing) !== resolve(\.uniqueThing))
        }
    }
}
