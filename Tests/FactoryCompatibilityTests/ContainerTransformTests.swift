import FactoryKit
import FactoryTestSupport
import FactoryTesting
import Testing

// Factory: `with(_:)` transforms a container where it is made or assigned, and the
// Swift Testing trait `.container { ... }` transforms each test's container before
// the test runs.
@Suite struct ContainerTransformTests {
    @Test func withRunsTheTransformAndReturnsTheContainer() {
        let container = Container().with {
            $0.weather.register { MockWeather("with") }
        }
        #expect(container.weather().source == "with")
    }

    @Test func withTransformsAnExistingContainerInPlace() {
        let container = Container()
        let same = container.with { $0.uniqueThing.register { Thing("with") } }
        #expect(same === container)
        #expect(container.uniqueThing().label == "with")
    }

    @Test func anAsynchronousWithAwaitsTheTransform() async {
        let container = await Container().with { container async in
            await Task.yield()
            container.weather.register { MockWeather("async with") }
        }
        #expect(container.weather().source == "async with")
    }

    @Test(.container { $0.weather.register { MockWeather("trait") } })
    func theTraitsTransformRunsBeforeTheTest() {
        #expect(Container.shared.weather().source == "trait")
        #expect(Container.shared.forecast().weather.source == "trait")
    }

    @Test(
        .container { container async in
            await Task.yield()
            container.uniqueThing.register { Thing("async trait") }
        })
    func theTraitsTransformMayBeAsynchronous() {
        #expect(Container.shared.uniqueThing().label == "async trait")
    }

    @Test(.container { container in container.weather.register { MockWeather("\(container === Container.shared)") } })
    func theTransformReceivesTheTestsContainer() {
        #expect(Container.shared.weather().source == "true")
    }
}
