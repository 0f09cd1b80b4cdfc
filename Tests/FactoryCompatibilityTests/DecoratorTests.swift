import FactoryKit
import FactoryTestSupport
import Testing

// Factory's decorators: a factory's `decorator` sees every instance it resolves (and
// whether it was just built); a container's `decorator` sees every resolution of
// that container.
@Suite struct DecoratorTests {
    @Test func aFactoryDecoratorSeesNewAndCachedInstances() {
        let container = Container()
        let seen = Collector<(String, Bool)>()
        let factory = Factory<Thing>(container, key: "decorated") { Thing("decorated") }
            .cached
            .decorator { thing, isNew in seen.append((thing.label, isNew)) }
        _ = factory()
        _ = factory()
        #expect(seen.values.map(\.0) == ["decorated", "decorated"])
        #expect(seen.values.map(\.1) == [true, false])
    }

    @Test func theOneArgumentDecoratorSeesEveryInstance() {
        let container = Container()
        let seen = Collector<ObjectIdentifier>()
        let factory = Factory<Thing>(container, key: "decoratedOnce") { Thing() }
            .decorator { seen.append(ObjectIdentifier($0)) }
        let first = factory()
        let second = factory()
        #expect(seen.values == [ObjectIdentifier(first), ObjectIdentifier(second)])
    }

    @Test func aDecoratorAddedAtRunTimePersists() {
        let container = Container()
        let seen = Counter()
        container.uniqueThing.decorator { _ in seen.increment() }
        _ = container.uniqueThing()
        _ = container.uniqueThing()
        #expect(seen.value == 2)
    }

    @Test func aDecoratorSeesWhatARegistrationBuilt() {
        let container = Container()
        let seen = Collector<String>()
        container.uniqueThing.decorator { seen.append($0.label) }
        container.uniqueThing.register { Thing("registered") }
        _ = container.uniqueThing()
        #expect(seen.values == ["registered"])
    }

    @Test func aContainerDecoratorSeesEveryResolution() {
        let container = Container()
        let seen = Collector<String>()
        container.decorator { seen.append(String(describing: type(of: $0))) }
        _ = container.forecast()
        #expect(seen.values == ["WeatherService", "Forecast"])
        container.decorator(nil)
        _ = container.forecast()
        #expect(seen.values.count == 2)
    }

    @Test func theFactorysDecoratorRunsBeforeTheContainers() {
        let container = Container()
        let order = Collector<String>()
        container.decorator { _ in order.append("container") }
        container.uniqueThing.decorator { _ in order.append("factory") }
        _ = container.uniqueThing()
        #expect(order.values == ["factory", "container"])
    }
}
