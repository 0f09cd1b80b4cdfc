import FactoryKit
import FactoryTestSupport
import Testing

// Factory: `manager.push()` saves a container's registrations, options and scope
// caches; `manager.pop()` restores them (the XCTest setUp/tearDown pattern).
@Suite struct PushPopTests {
    @Test func popUndoesRegistrationsMadeAfterPush() {
        let container = Container()
        container.weather.register { MockWeather("before") }
        container.manager.push()
        container.weather.register { MockWeather("after") }
        #expect(container.weather().source == "after")
        container.manager.pop()
        #expect(container.weather().source == "before")
    }

    @Test func popRestoresTheCachesAsTheyWere() {
        let container = Container()
        let cached = container.cachedThing()
        container.manager.push()
        container.manager.reset(options: .scope)
        let rebuilt = container.cachedThing()
        #expect(rebuilt !== cached)
        container.manager.pop()
        #expect(container.cachedThing() === cached)
    }

    @Test func popRemovesContextsAndScopesSetAfterPush() {
        let container = Container()
        container.manager.push()
        container.weather.onTest { MockWeather("test") }
        container.uniqueThing.scope(.cached)
        container.manager.pop()
        #expect(container.weather().source == "live")
        #expect(container.uniqueThing() !== container.uniqueThing())
    }

    @Test func pushesNest() {
        let container = Container()
        container.manager.push()
        container.weather.register { MockWeather("one") }
        container.manager.push()
        container.weather.register { MockWeather("two") }
        container.manager.pop()
        #expect(container.weather().source == "one")
        container.manager.pop()
        #expect(container.weather().source == "live")
    }

    @Test func popWithoutPushChangesNothing() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        container.manager.pop()
        #expect(container.weather().source == "registered")
    }

    @Test func pushAndPopTouchOneContainerOnly() {
        let first = Container()
        let second = Container()
        first.manager.push()
        first.weather.register { MockWeather("first") }
        second.weather.register { MockWeather("second") }
        first.manager.pop()
        #expect(first.weather().source == "live")
        #expect(second.weather().source == "second")
    }
}
