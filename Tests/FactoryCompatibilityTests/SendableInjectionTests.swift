import FactoryKit
import FactoryTestSupport
import FactoryTesting
import Testing

// Injection into `Sendable` classes, actors and `Sendable` structs, the patterns of
// the "Sendable Types and Actors" article (Factory issue #354: `@Injected` is a `var`,
// which a non-isolated `Sendable` class may not have, here as in Factory). Each
// resolves from the container that is `shared` when the object is created, as
// `@Injected` does, and the objects cross tasks.

/// Resolves in `init`, into `let`s, from a container that defaults to the shared one.
final class SendableReport: Sendable {
    let weather: any WeatherProviding
    let forecast: Forecast

    init(container: Container = .shared) {
        weather = container.weather()
        forecast = container.forecast()
    }
}

/// Resolves in the initial values of its properties.
final class SendableScreen: Sendable {
    let weather = Container.shared.weather()
    let featureWeather = resolve(\FeatureContainer.weather)
}

/// The lazy and dynamic wrappers, declared as `let`s and read through `wrappedValue`.
final class SendableLazyScreen: Sendable {
    let thing = LazyInjected(\CountingContainer.thing)
    let cached = LazyInjected(\.cachedThing)
    let weather = DynamicInjected(\.weather)
}

/// An actor may hold `let`s and the wrappers themselves (its state is isolated).
actor WeatherStation {
    let weather = Container.shared.weather()
    @Injected(\.cachedThing) var thing
    @LazyInjected(\CountingContainer.thing) var lazyThing

    func labels() -> (weather: String, thing: String, lazyThing: String) {
        (weather.source, thing.label, lazyThing.label)
    }
}

/// A `Sendable` struct may hold the wrappers: its `var`s are fine for `Sendable`.
struct SendableHandler: Sendable {
    @Injected(\.weather) var weather
    @LazyInjected(\.cachedThing) var thing
}

@Suite(.container) struct SendableInjectionTests {
    @Test func resolvingInInitUsesTheContainerSharedAtThatMoment() {
        Container.shared.weather.register { MockWeather("first") }
        let report = SendableReport()
        Container.shared.weather.register { MockWeather("second") }
        #expect(report.weather.source == "first")
        #expect(report.forecast.weather.source == "first")
        #expect(SendableReport().weather.source == "second")
    }

    @Test func anExplicitContainerIsUsedInsteadOfTheSharedOne() {
        let other = Container()
        other.weather.register { MockWeather("other") }
        #expect(SendableReport(container: other).weather.source == "other")
        #expect(SendableReport().weather.source == "live")
    }

    @Test func initialValuesResolveWhenTheObjectIsCreated() {
        Container.shared.weather.register { MockWeather("first") }
        let screen = SendableScreen()
        Container.shared.weather.register { MockWeather("second") }
        #expect(screen.weather.source == "first")
        #expect(screen.featureWeather.source == "feature")
        #expect(SendableScreen().weather.source == "second")
    }

    @Test(.counting) func aLazyWrapperHeldInALetResolvesOnFirstReadOnce() {
        let screen = SendableLazyScreen()
        #expect(CountingContainer.shared.builds.value == 0)
        #expect(screen.thing.projectedValue.resolvedOrNil() == nil)
        let first = screen.thing.wrappedValue
        #expect(screen.thing.wrappedValue === first)
        #expect(CountingContainer.shared.builds.value == 1)
    }

    @Test func aLazyWrapperHeldInALetSeesARegistrationMadeBeforeItsFirstRead() {
        let screen = SendableLazyScreen()
        Container.shared.cachedThing.register { Thing("registered") }
        #expect(screen.cached.wrappedValue.label == "registered")
    }

    @Test func aDynamicWrapperHeldInALetResolvesOnEveryRead() {
        let screen = SendableLazyScreen()
        Container.shared.weather.register { MockWeather("first") }
        #expect(screen.weather.wrappedValue.source == "first")
        Container.shared.weather.register { MockWeather("second") }
        #expect(screen.weather.wrappedValue.source == "second")
    }

    @Test(.counting) func anActorResolvesItsLetsAndWrappersFromTheSharedContainer() async {
        Container.shared.weather.register { MockWeather("actor") }
        Container.shared.cachedThing.register { Thing("cached") }
        let station = WeatherStation()
        Container.shared.weather.register { MockWeather("later") }
        #expect(CountingContainer.shared.builds.value == 0)
        let labels = await station.labels()
        #expect(labels.weather == "actor")
        #expect(labels.thing == "cached")
        #expect(labels.lazyThing == "1")
        #expect(await station.labels().lazyThing == "1")
        #expect(CountingContainer.shared.builds.value == 1)
    }

    @Test func aSendableStructHoldsTheWrappers() {
        Container.shared.weather.register { MockWeather("struct") }
        let handler = SendableHandler()
        #expect(handler.weather.source == "struct")
        #expect(handler.thing === Container.shared.cachedThing())
    }

    /// Made inside a request's container, each object keeps what that container gave
    /// it when it is sent to another task, which sees the default container.
    @Test func objectsMadeForARequestKeepItsServicesInAnotherTask() async {
        let request = Container()
        request.weather.register { MockWeather("request") }
        request.cachedThing.register { Thing("request") }
        let (report, screen, handler) = Container.$shared.withValue(request) {
            (SendableReport(), SendableLazyScreen(), SendableHandler())
        }
        let station = Container.$shared.withValue(request) { WeatherStation() }
        let seen = await Task.detached {
            (
                report.weather.source, screen.cached.wrappedValue.label, screen.weather.wrappedValue.source,
                handler.weather.source, await station.labels().thing
            )
        }.value
        #expect(seen.0 == "request")
        #expect(seen.1 == "request")
        #expect(seen.2 == "request")
        #expect(seen.3 == "request")
        #expect(seen.4 == "request")
    }
}
