import FactoryKit
import FactoryTestSupport
import FactoryTesting
import Testing

/// A custom container declared for the trait as Factory's testing guide declares
/// one: a task-local `shared`.
final class TaskLocalFeatureContainer: SharedContainer {
    @TaskLocal static var shared = TaskLocalFeatureContainer()
    let manager = ContainerManager()
}

extension TaskLocalFeatureContainer {
    var weather: Factory<any WeatherProviding> { self { WeatherService() } }
    var cachedThing: Factory<Thing> { self { Thing() }.cached }
}

extension Trait where Self == ContainerTrait<TaskLocalFeatureContainer> {
    /// The trait for ``TaskLocalFeatureContainer``, made with `ContainerTrait.init(shared:container:)`.
    static var featureContainer: ContainerTrait<TaskLocalFeatureContainer> {
        .init(shared: TaskLocalFeatureContainer.$shared, container: .init())
    }
}

// Factory's `.container` trait: each test (each case of a parameterized test) runs
// with a new `Container.shared`, so tests that register mocks run in parallel
// without seeing each other's registrations, on a suite as on a test; and
// `ContainerTrait<C>` does the same for a custom container.
@Suite(.container) struct ContainerTraitTests {
    @Test func eachTestStartsFromTheDefinitions() {
        #expect(Container.shared.weather().source == "live")
        Container.shared.weather.register { MockWeather("one test") }
        #expect(Container.shared.weather().source == "one test")
    }

    @Test(arguments: 0..<8) func eachCaseHasAContainerOfItsOwn(_ id: Int) async {
        #expect(Container.shared.weather().source == "live")
        Container.shared.weather.register { MockWeather("case \(id)") }
        let cached = Container.shared.cachedThing()
        await Task.yield()
        #expect(Container.shared.weather().source == "case \(id)")
        #expect(Container.shared.cachedThing() === cached)
    }

    @Test func propertyWrappersSeeTheTestsContainer() {
        Container.shared.weather.register { MockWeather("wrapped") }
        final class Screen {
            @Injected(\.weather) var weather
        }
        #expect(Screen().weather.source == "wrapped")
    }

    @Test func childTasksSeeTheTestsContainer() async {
        let container = Container.shared
        let seen = await Task { Container.shared === container }.value
        #expect(seen)
    }

    @Test(.container { $0.weather.register { MockWeather("test trait") } })
    func aTestsTraitAddsToTheSuitesTrait() {
        #expect(Container.shared.weather().source == "test trait")
    }

    @Suite struct Nested {
        @Test func nestedSuitesInheritTheTrait() {
            #expect(Container.shared.weather().source == "live")
            Container.shared.weather.register { MockWeather("nested") }
            #expect(Container.shared.weather().source == "nested")
        }
    }
}

@Suite struct CustomContainerTraitTests {
    @Test(.featureContainer) func aCustomContainerGetsAFreshInstance() {
        #expect(TaskLocalFeatureContainer.shared.weather().source == "live")
        TaskLocalFeatureContainer.shared.weather.register { MockWeather("custom") }
        #expect(TaskLocalFeatureContainer.shared.weather().source == "custom")
    }

    @Test(.featureContainer, arguments: 0..<4) func everyCaseHasItsOwnCustomContainer(_ id: Int) async {
        TaskLocalFeatureContainer.shared.weather.register { MockWeather("custom \(id)") }
        await Task.yield()
        #expect(TaskLocalFeatureContainer.shared.weather().source == "custom \(id)")
    }

    @Test(.featureContainer { $0.weather.register { MockWeather("custom trait") } })
    func aCustomTraitTakesATransform() {
        #expect(TaskLocalFeatureContainer.shared.weather().source == "custom trait")
    }

    @Test(.container, .featureContainer) func twoTraitsIsolateTwoContainers() {
        Container.shared.weather.register { MockWeather("default") }
        TaskLocalFeatureContainer.shared.weather.register { MockWeather("custom") }
        #expect(Container.shared.weather().source == "default")
        #expect(TaskLocalFeatureContainer.shared.weather().source == "custom")
    }

    @Test func withoutTheTraitTheProcessContainerIsShared() {
        let outside = TaskLocalFeatureContainer.shared
        #expect(TaskLocalFeatureContainer.shared === outside)
        TaskLocalFeatureContainer.$shared.withValue(TaskLocalFeatureContainer()) {
            #expect(TaskLocalFeatureContainer.shared !== outside)
        }
    }
}
