import FactoryKit
import FactoryTestSupport
import Testing

/// A container that registers at start-up, counting how often it does. Made with
/// `waitingCallers`, its `autoRegister()` returns only once that many other threads
/// (``callers``) wait for it in their first resolution.
final class StartUpContainer: SharedContainer, AutoRegistering {
    static let shared = StartUpContainer()
    let manager = ContainerManager()
    let runs = Counter()
    let waitingCallers: Int
    let callers = Callers()
    let overlaps = Overlaps()

    init(waitingCallers: Int = 0) {
        self.waitingCallers = waitingCallers
    }

    func autoRegister() {
        runs.increment()
        if waitingCallers > 0 {
            overlaps.wait("\(waitingCallers) other threads wait for autoRegister()") {
                callers.othersWaitInside(waitingCallers)
            }
        }
        weather.register { MockWeather("auto") }
    }
}

extension StartUpContainer {
    var weather: Factory<any WeatherProviding> { self { WeatherService() } }
    var cachedThing: Factory<Thing> { self { Thing() }.cached }
}

// Factory: a container that conforms to `AutoRegistering` has `autoRegister()`
// called before its first resolution, once; a reset of its registrations (or of
// everything) makes it run again on next use.
@Suite struct AutoRegisterTests {
    @Test func itRunsBeforeTheFirstResolution() {
        let container = StartUpContainer()
        #expect(container.runs.value == 0)
        #expect(container.weather().source == "auto")
        #expect(container.runs.value == 1)
    }

    @Test func itRunsOncePerContainer() {
        let container = StartUpContainer()
        _ = container.weather()
        _ = container.weather()
        _ = container.cachedThing()
        #expect(container.runs.value == 1)
        let other = StartUpContainer()
        _ = other.weather()
        #expect(other.runs.value == 1)
    }

    @Test func aLaterRegistrationWinsOverIt() {
        let container = StartUpContainer()
        container.weather.register { MockWeather("later") }
        #expect(container.weather().source == "later")
        #expect(container.runs.value == 1)
    }

    @Test func itRunsAgainAfterAFullReset() {
        let container = StartUpContainer()
        _ = container.weather()
        container.manager.reset()
        #expect(container.weather().source == "auto")
        #expect(container.runs.value == 2)
    }

    @Test func itRunsAgainAfterARegistrationReset() {
        let container = StartUpContainer()
        _ = container.weather()
        container.reset(options: .registration)
        #expect(container.weather().source == "auto")
        #expect(container.runs.value == 2)
    }

    @Test func aScopeResetDoesNotRunItAgain() {
        let container = StartUpContainer()
        _ = container.weather()
        container.manager.reset(options: .scope)
        _ = container.weather()
        #expect(container.runs.value == 1)
    }

    @Test func aPopToBeforeItRanRunsItAgain() {
        let container = StartUpContainer()
        container.manager.push()
        _ = container.weather()
        container.manager.pop()
        #expect(container.weather().source == "auto")
        #expect(container.runs.value == 2)
    }

    /// `autoRegister()` runs on one of eight threads and returns only once the other
    /// seven wait for it in their first resolution.
    @Test func manyThreadsTouchingANewContainerRunItOnce() {
        let container = StartUpContainer(waitingCallers: 7)
        let seen = Collector<String>()
        runOnThreads(8) { _ in
            container.callers.enter()
            let source = container.weather().source
            container.callers.leave()
            seen.append(source)
        }
        container.overlaps.expect(1)
        #expect(container.runs.value == 1)
        #expect(seen.values == Array(repeating: "auto", count: 8))
    }
}
