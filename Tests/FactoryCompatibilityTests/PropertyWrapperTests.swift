import FactoryKit
import FactoryTestSupport
import FactoryTesting
import Testing

/// Counts builds, so lazy and dynamic wrappers show when they resolve.
final class CountingContainer: SharedContainer {
    @TaskLocal static var shared = CountingContainer()
    let manager = ContainerManager()
    let builds = Counter()
}

extension CountingContainer {
    var thing: Factory<Thing> { self { Thing("\(self.builds.increment())") } }
    var cachedThing: Factory<Thing> { self { Thing("\(self.builds.increment())") }.cached }
}

extension Trait where Self == ContainerTrait<CountingContainer> {
    /// A fresh ``CountingContainer`` for each test.
    static var counting: ContainerTrait<CountingContainer> {
        .init(shared: CountingContainer.$shared, container: .init())
    }
}

final class InjectedScreen {
    @Injected(\.weather) var weather
    @Injected(\.cachedThing) var cached
    @Injected(\FeatureContainer.weather) var featureWeather
}

final class LazyScreen {
    @LazyInjected(\CountingContainer.thing) var thing
    @LazyInjected(\.weather) var weather
}

final class WeakScreen {
    @WeakLazyInjected(\.sharedThing) var thing: Thing?
    @WeakLazyInjected(\CountingContainer.cachedThing) var counted: Thing?
}

final class DynamicScreen {
    @DynamicInjected(\.weather) var weather
}

final class ContainerScreen {
    @InjectedContainer var container: Container
    @InjectedContainer(TaskLocalFeatureContainer.self) var feature
}

// Factory's property wrappers and their projected values. Each test has its own
// `Container.shared` (the suite's trait) and, where it counts builds, its own
// `CountingContainer.shared`.
@Suite(.container) struct PropertyWrapperTests {
    @Test func injectedResolvesWhenTheObjectIsCreated() {
        Container.shared.weather.register { MockWeather("first") }
        let screen = InjectedScreen()
        Container.shared.weather.register { MockWeather("second") }
        #expect(screen.weather.source == "first")
        #expect(InjectedScreen().weather.source == "second")
        #expect(screen.featureWeather.source == "feature")
    }

    @Test func injectedsProjectedValueResolvesAgain() {
        let screen = InjectedScreen()
        let cached = screen.cached
        #expect(screen.$cached.factory() === cached)
        screen.$cached.resolve()
        #expect(screen.cached === cached)
        screen.$cached.resolve(reset: .scope)
        #expect(screen.cached !== cached)
        #expect(Container.shared.cachedThing() === screen.cached)
    }

    @Test(.counting)
    func lazyInjectedResolvesOnFirstReadOnce() {
        let screen = LazyScreen()
        #expect(CountingContainer.shared.builds.value == 0)
        #expect(screen.$thing.resolvedOrNil() == nil)
        let first = screen.thing
        #expect(screen.thing === first)
        #expect(CountingContainer.shared.builds.value == 1)
        #expect(screen.$thing.resolvedOrNil() === first)
        screen.$thing.resolve()
        #expect(screen.thing !== first)
        #expect(CountingContainer.shared.builds.value == 2)
    }

    /// Created while another container is `Container.shared`, read after that
    /// binding ended: the read resolves from the container of the creation, with
    /// what was registered there before the first read.
    @Test func lazyInjectedUsesTheContainerOfItsCreation() {
        let creation = Container()
        let screen = Container.$shared.withValue(creation) { LazyScreen() }
        Container.shared.weather.register { MockWeather("the test's container") }
        creation.weather.register { MockWeather("registered before the first read") }
        #expect(screen.weather.source == "registered before the first read")
    }

    @Test func weakLazyInjectedHoldsItsInstanceWeakly() {
        let screen = WeakScreen()
        var held: Thing? = Container.shared.sharedThing()
        #expect(screen.thing === held)
        #expect(screen.$thing.resolvedOrNil() === held)
        held = nil
        #expect(screen.thing == nil)
        #expect(screen.$thing.resolvedOrNil() == nil)
    }

    @Test(.counting)
    func weakLazyInjectedResolvesOnFirstRead() {
        let screen = WeakScreen()
        #expect(CountingContainer.shared.builds.value == 0)
        let held = screen.counted
        #expect(held != nil)
        #expect(screen.counted === held)
        #expect(CountingContainer.shared.builds.value == 1)
    }

    @Test func dynamicInjectedResolvesOnEveryRead() {
        let screen = DynamicScreen()
        #expect(screen.weather.source == "live")
        Container.shared.weather.register { MockWeather("registered") }
        #expect(screen.weather.source == "registered")
        screen.$weather.register { MockWeather("projected") }
        #expect(screen.weather.source == "projected")
        screen.$weather.reset()
        #expect(screen.weather.source == "live")
        #expect(screen.weather !== screen.weather)
    }

    @Test(.featureContainer) func injectedContainerCapturesTheSharedContainers() {
        let screen = ContainerScreen()
        #expect(screen.container === Container.shared)
        #expect(screen.feature === TaskLocalFeatureContainer.shared)
        Container.shared.weather.register { MockWeather("through the container") }
        #expect(screen.container.weather().source == "through the container")
    }
}
