import FactoryKit
import FactoryTestSupport
import Testing

/// A container in Factory's type-based ("Resolver") mode.
final class TypedServices: SharedContainer, Resolving {
    static let shared = TypedServices()
    let manager = ContainerManager()
}

final class TypedScreen {
    @InjectedType var weather: WeatherService?
    @InjectedType var provider: (any WeatherProviding)?

    init(container: TypedServices) {
        _weather = InjectedType(container)
        _provider = InjectedType(container)
    }
}

// Factory's `Resolving` mode: `register { }` by type, `resolve()` to an optional
// (nil when nothing is registered), `factory(_:)` for the factory itself, and
// `@InjectedType`.
@Suite struct ResolvingTests {
    @Test func registerAndResolveByType() {
        let container = TypedServices()
        container.register { WeatherService() }
        let weather: WeatherService? = container.resolve()
        #expect(weather?.source == "live")
        #expect(container.resolve(WeatherService.self) !== weather)
    }

    @Test func nothingRegisteredResolvesToNil() {
        let container = TypedServices()
        let weather: WeatherService? = container.resolve()
        #expect(weather == nil)
        #expect(container.factory(WeatherService.self) == nil)
    }

    @Test func registrationsAreKeyedByTheExactType() {
        let container = TypedServices()
        container.register { WeatherService() }
        #expect(container.resolve((any WeatherProviding).self) == nil)
        container.register { MockWeather("protocol") as any WeatherProviding }
        #expect(container.resolve((any WeatherProviding).self)?.source == "protocol")
    }

    @Test func modifiersChainedAfterRegisterPersist() {
        let container = TypedServices()
        container.register { Thing("typed") }.scope(.cached)
        let first = container.resolve(Thing.self)
        #expect(first?.label == "typed")
        #expect(container.resolve(Thing.self) === first)
        #expect(container.factory(Thing.self)?() === first)
    }

    @Test func aResetForgetsTypeRegistrations() {
        let container = TypedServices()
        container.register { Thing() }
        container.manager.reset()
        #expect(container.resolve(Thing.self) == nil)
    }

    @Test func injectedTypeResolvesByType() {
        let container = TypedServices()
        container.register { WeatherService() }
        let screen = TypedScreen(container: container)
        #expect(screen.weather?.source == "live")
        #expect(screen.provider == nil)
    }
}
