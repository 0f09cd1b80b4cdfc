import FactoryKit
import FactoryTestSupport
import Testing

// Factory: `reset()` on a factory forgets everything about it; `reset(_:)` with
// `.registration`, `.scope`, `.context`, `.all` or `.none` forgets one part; the
// container's manager (and the container itself) resets every factory at once.
@Suite struct FactoryResetTests {
    @Test func resetForgetsTheRegistrationTheCacheAndTheContexts() {
        let container = Container()
        container.cachedThing.register { Thing("registered") }
        let registered = container.cachedThing()
        container.weather.register { MockWeather("registered") }
        container.weather.onTest { MockWeather("test") }
        container.cachedThing.reset()
        container.weather.reset()
        let rebuilt = container.cachedThing()
        #expect(rebuilt !== registered)
        #expect(rebuilt.label == "definition")
        #expect(container.weather().source == "live")
    }

    /// `reset()` and `reset(.all)` leave every part in the same state.
    @Test func resetAllIsTheDefault() {
        /// What a registered, cached and context-overridden pair of factories
        /// resolve to after `reset`.
        func resolved(after reset: (Container) -> Void) -> [String] {
            let container = Container()
            container.cachedThing.register { Thing("registered") }
            let cached = container.cachedThing()
            container.weather.register { MockWeather("registered") }
            container.weather.onTest { MockWeather("test") }
            reset(container)
            let thing = container.cachedThing()
            return [thing.label, thing === cached ? "kept" : "rebuilt", container.weather().source]
        }
        let byDefault = resolved {
            $0.cachedThing.reset()
            $0.weather.reset()
        }
        let all = resolved {
            $0.cachedThing.reset(.all)
            $0.weather.reset(.all)
        }
        #expect(byDefault == all)
        #expect(byDefault == ["definition", "rebuilt", "live"])
    }

    @Test func resetRegistrationRestoresTheDefinitionAndKeepsTheCachedInstance() {
        let container = Container()
        let cached = container.cachedThing()
        container.weather.register { MockWeather("registered") }
        container.weather.onTest { MockWeather("test") }
        container.weather.reset(.registration)
        container.cachedThing.reset(.registration)
        #expect(container.cachedThing() === cached)
        // The context override is not a registration: it stays.
        #expect(container.weather().source == "test")
        container.weather.reset(.context)
        #expect(container.weather().source == "live")
    }

    @Test func resetScopeDropsTheCachedInstanceAndKeepsTheRegistration() {
        let container = Container()
        container.cachedThing.register { Thing("registered") }
        let cached = container.cachedThing()
        container.cachedThing.reset(.scope)
        let rebuilt = container.cachedThing()
        #expect(rebuilt !== cached)
        #expect(rebuilt.label == "registered")
    }

    @Test func resetContextRemovesTheOverridesAndKeepsTheRegistration() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        container.weather.onTest { MockWeather("test") }
        #expect(container.weather().source == "test")
        container.weather.reset(.context)
        #expect(container.weather().source == "registered")
    }

    @Test func resetNoneChangesNothing() {
        let container = Container()
        container.cachedThing.register { Thing("registered") }
        let cached = container.cachedThing()
        container.cachedThing.reset(.none)
        #expect(container.cachedThing() === cached)
    }

    @Test func resettingOneFactoryLeavesTheOthersAlone() {
        let container = Container()
        container.weather.register { MockWeather() }
        container.uniqueThing.register { Thing("registered") }
        container.weather.reset()
        #expect(container.weather().source == "live")
        #expect(container.uniqueThing().label == "registered")
    }

    @Test func resettingASingletonFactoryDropsItsSingleton() {
        withIsolatedSingletons { isolate in
            let container = isolate(Container())
            let singleton = container.singletonThing()
            container.singletonThing.reset(.scope)
            #expect(container.singletonThing() !== singleton)
        }
    }
}

@Suite struct ContainerResetTests {
    @Test func managerResetAllForgetsEveryRegistrationContextAndCache() {
        let container = Container()
        container.weather.register { MockWeather() }
        container.uniqueThing.onTest { Thing("test") }
        let cached = container.cachedThing()
        container.manager.reset(options: .all)
        #expect(container.weather().source == "live")
        #expect(container.uniqueThing().label == "definition")
        #expect(container.cachedThing() !== cached)
    }

    @Test func managerResetDefaultsToAll() {
        let container = Container()
        container.weather.register { MockWeather() }
        container.manager.reset()
        #expect(container.weather().source == "live")
    }

    @Test func managerResetRegistrationKeepsCachesAndContexts() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        container.uniqueThing.onTest { Thing("test") }
        let cached = container.cachedThing()
        container.manager.reset(options: .registration)
        #expect(container.weather().source == "live")
        #expect(container.uniqueThing().label == "test")
        #expect(container.cachedThing() === cached)
    }

    @Test func managerResetScopeEmptiesTheCachesAndKeepsRegistrations() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        let cached = container.cachedThing()
        let session = container.sessionThing()
        container.manager.reset(options: .scope)
        #expect(container.cachedThing() !== cached)
        #expect(container.sessionThing() !== session)
        #expect(container.weather().source == "registered")
    }

    @Test func managerResetContextKeepsRegistrations() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        container.weather.onTest { MockWeather("test") }
        container.manager.reset(options: .context)
        #expect(container.weather().source == "registered")
    }

    @Test func managerResetNoneChangesNothing() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        let cached = container.cachedThing()
        container.manager.reset(options: .none)
        #expect(container.weather().source == "registered")
        #expect(container.cachedThing() === cached)
    }

    @Test func containerResetIsTheManagersReset() {
        let container = Container()
        container.weather.register { MockWeather("registered") }
        let cached = container.cachedThing()
        container.reset(options: .scope)
        #expect(container.cachedThing() !== cached)
        #expect(container.weather().source == "registered")
        container.reset()
        #expect(container.weather().source == "live")
    }

    @Test func resettingOneCustomScopeLeavesTheOthers() {
        let container = Container()
        let cached = container.cachedThing()
        let session = container.sessionThing()
        container.manager.reset(scope: .session)
        #expect(container.sessionThing() !== session)
        #expect(container.cachedThing() === cached)
    }

    @Test func aContainerResetLeavesSingletonsAlone() {
        withIsolatedSingletons { isolate in
            let container = isolate(Container())
            let singleton = container.singletonThing()
            container.manager.reset(options: .all)
            container.manager.reset(scope: .singleton)
            #expect(container.singletonThing() === singleton)
            Scope.singleton.reset()
            #expect(container.singletonThing() !== singleton)
        }
    }

    @Test func resettingOneContainerLeavesAnotherAlone() {
        let first = Container()
        let second = Container()
        first.weather.register { MockWeather("first") }
        second.weather.register { MockWeather("second") }
        first.reset()
        #expect(second.weather().source == "second")
    }
}
