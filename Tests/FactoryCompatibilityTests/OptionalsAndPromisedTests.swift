import FactoryKit
import FactoryTestSupport
import Testing

// Factory: a factory of an optional type can return `nil` until something is
// registered, and `promised()` declares one with no definition at all, resolved to
// `nil` when nothing is registered and `promiseTriggersError` is off.
@Suite struct OptionalsAndPromisedTests {
    @Test func anOptionalFactoryResolvesNilUntilRegistered() {
        let container = Container()
        #expect(container.optionalWeather() == nil)
        container.optionalWeather.register { MockWeather("logged in") }
        #expect(container.optionalWeather()?.source == "logged in")
        container.optionalWeather.reset()
        #expect(container.optionalWeather() == nil)
    }

    @Test func anOptionalCanBeRegisteredBackToNil() {
        let container = Container()
        container.optionalWeather.register { MockWeather() }
        container.optionalWeather.register { nil }
        #expect(container.optionalWeather() == nil)
    }

    @Test func aPromisedFactoryResolvesWhatIsRegistered() {
        let container = Container()
        container.promisedWeather.register { MockWeather("kept") }
        #expect(container.promisedWeather()?.source == "kept")
    }

    @Test func anUnregisteredPromiseIsNilWhenItTriggersNoError() {
        let container = Container()
        container.manager.promiseTriggersError = false
        #expect(container.promisedWeather() == nil)
        #expect(container.promisedGreeting("Ada") == nil)
    }

    @Test func aPromisedParameterFactoryReceivesTheParameter() {
        let container = Container()
        container.promisedGreeting.register { Greeting("promised \($0)") }
        #expect(container.promisedGreeting("Ada")?.name == "promised Ada")
    }

    @Test func promiseTriggersErrorIsOnInDebugBuilds() {
        #if DEBUG
        #expect(Container().manager.promiseTriggersError)
        #else
        #expect(!Container().manager.promiseTriggersError)
        #endif
    }
}
