import FactoryKit
import FactoryTestSupport

// The services and factories the compatibility tests resolve, declared the way a
// Factory 3 app declares them. Every value is a class, so that tests can tell
// instances apart with `===`.

/// A service behind a protocol, as in Factory's examples.
protocol WeatherProviding: AnyObject, Sendable {
    /// Which implementation built this instance.
    var source: String { get }
}

/// The real weather service.
final class WeatherService: WeatherProviding {
    let source = "live"
}

/// A mock of ``WeatherProviding``, labelled so tests see which closure built it.
final class MockWeather: WeatherProviding {
    let source: String
    init(_ source: String = "mock") { self.source = source }
}

/// A plain object with a label: which closure built it.
final class Thing: Sendable {
    let label: String
    init(_ label: String = "definition") { self.label = label }
}

/// Built from a parameter.
final class Greeting: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Constructor injection: a forecast resolves its weather from the same container.
final class Forecast: Sendable {
    let weather: any WeatherProviding
    init(weather: any WeatherProviding) { self.weather = weather }
}

/// Two graph-scoped things resolved inside one resolution cycle.
final class ThingPair: Sendable {
    let first: Thing
    let second: Thing
    init(first: Thing, second: Thing) {
        self.first = first
        self.second = second
    }
}

extension Scope {
    /// A custom cache, as in Factory's documentation: `static let session = Cached()`.
    static let session = Cached()
}

extension Container {
    // The two spellings of one definition.
    var weather: Factory<any WeatherProviding> { self { WeatherService() } }
    var formalWeather: Factory<any WeatherProviding> { Factory(self) { WeatherService() } }
    var forecast: Factory<Forecast> { self { Forecast(weather: self.weather()) } }

    // One factory per scope.
    var uniqueThing: Factory<Thing> { self { Thing() } }
    var explicitlyUniqueThing: Factory<Thing> { self { Thing() }.unique }
    var cachedThing: Factory<Thing> { self { Thing() }.cached }
    var sharedThing: Factory<Thing> { self { Thing() }.shared }
    var singletonThing: Factory<Thing> { self { Thing() }.singleton }
    var graphThing: Factory<Thing> { self { Thing() }.graph }
    var sessionThing: Factory<Thing> { self { Thing() }.scope(.session) }
    var hourThing: Factory<Thing> { self { Thing() }.cached.timeToLive(3600) }
    var briefThing: Factory<Thing> { self { Thing() }.cached.timeToLive(0.01) }
    var uniqueBriefThing: Factory<Thing> { self { Thing() }.timeToLive(0.01) }
    var graphPair: Factory<ThingPair> { self { ThingPair(first: self.graphThing(), second: self.graphThing()) } }
    var cachedPair: Factory<ThingPair> { self { ThingPair(first: self.cachedThing(), second: self.uniqueThing()) } }

    // Parameter factories.
    var greeting: ParameterFactory<String, Greeting> { self { Greeting($0) } }
    var formalGreeting: ParameterFactory<String, Greeting> { ParameterFactory(self) { Greeting($0) } }
    var pairGreeting: ParameterFactory<(String, Int), Greeting> { self { Greeting("\($0.0) \($0.1)") } }
    var cachedGreeting: ParameterFactory<String, Greeting> { self { Greeting($0) }.cached }
    var greetingPerName: ParameterFactory<String, Greeting> { self { Greeting($0) }.cached.scopeOnParameters }
    var greetingPerNameFirst: ParameterFactory<String, Greeting> { self { Greeting($0) }.scopeOnParameters.cached }

    // Optionals and promises.
    var optionalWeather: Factory<(any WeatherProviding)?> { self { nil } }
    var promisedWeather: Factory<(any WeatherProviding)?> { promised() }
    var promisedGreeting: ParameterFactory<String, Greeting?> { promised() }
}

/// A custom container declared as Factory's documentation declares one.
final class FeatureContainer: SharedContainer {
    static let shared = FeatureContainer()
    let manager = ContainerManager()
}

extension FeatureContainer {
    // The same name as `Container.weather`: keys include the container type.
    var weather: Factory<any WeatherProviding> { self { MockWeather("feature") } }
    var cachedThing: Factory<Thing> { self { Thing("feature") }.cached }
}
