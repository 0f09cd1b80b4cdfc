import FactoryKit
import FactoryTestSupport
import Testing

/// The number a trace line shows for an object.
private func traceID(_ object: AnyObject) -> UInt {
    UInt(bitPattern: ObjectIdentifier(object))
}

// Factory's trace: with `manager.trace` on, one line per resolution goes to
// `manager.logger` when the outermost resolution ends:
// `depth: <indent>Container.name<Type> = X:<id> ConcreteType`, where X is F (built
// by the definition), R (by a registration), O (by a context override) or C (from a cache).
@Suite struct TraceTests {
    @Test func oneLinePerResolutionIndentedByDepth() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        let forecast = container.forecast()
        #expect(
            lines.values == [
                "0: Container.forecast<Forecast> = F:\(traceID(forecast)) Forecast",
                "1:     Container.weather<WeatherProviding> = F:\(traceID(forecast.weather)) WeatherService",
            ])
    }

    @Test func registrationsOverridesAndCacheHitsAreMarked() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        container.weather.register { MockWeather() }
        let registered = container.weather()
        container.weather.onTest { MockWeather("test") }
        let overridden = container.weather()
        let cached = container.cachedThing()
        _ = container.cachedThing()
        #expect(
            lines.values == [
                "0: Container.weather<WeatherProviding> = R:\(traceID(registered)) MockWeather",
                "0: Container.weather<WeatherProviding> = O:\(traceID(overridden)) MockWeather",
                "0: Container.cachedThing<Thing> = F:\(traceID(cached)) Thing",
                "0: Container.cachedThing<Thing> = C:\(traceID(cached)) Thing",
            ])
    }

    @Test func aCustomContainerIsNamedByItsType() {
        let container = FeatureContainer()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        let weather = container.weather()
        #expect(lines.values == ["0: FeatureContainer.weather<WeatherProviding> = F:\(traceID(weather)) MockWeather"])
    }

    @Test func nothingIsLoggedWithTraceOff() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        _ = container.forecast()
        #expect(lines.values.isEmpty)
        container.manager.trace = true
        _ = container.forecast()
        #expect(lines.values.count == 2)
    }
}
