import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct ContainerManagerTests {
    @Test func resetAllRemovesEveryRegistration() {
        let container = Container()
        container.greeting.register { MockGreeting() }
        container.numbered.register { Service(id: $0 + 1) }
        container.manager.reset(options: .all)
        #expect(container.greeting().text == "hello")
        #expect(container.numbered(1).id == 1)
    }

    @Test func containerResetIsManagerReset() {
        let container = Container()
        container.greeting.register { MockGreeting() }
        container.reset()
        #expect(container.greeting().text == "hello")
    }

    @Test func resetRegistrationKeepsContexts() {
        let container = Container()
        container.greeting.register { MockGreeting("registered") }
        container.service.onTest { Service(id: 9) }
        container.manager.reset(options: .registration)
        #expect(container.greeting().text == "hello")
        #expect(container.service().id == 9)
        container.manager.reset(options: .context)
        #expect(container.service().id == 0)
    }

    @Test func pushAndPopRestoreRegistrations() {
        let container = Container()
        container.greeting.register { MockGreeting("before") }
        container.manager.push()
        container.greeting.register { MockGreeting("during") }
        container.numbered.register { _ in Service(id: -1) }
        #expect(container.greeting().text == "during")
        container.manager.pop()
        #expect(container.greeting().text == "before")
        #expect(container.numbered(5).id == 5)
    }

    @Test func pushesNestAndExtraPopsAreHarmless() {
        let container = Container()
        container.manager.push()
        container.greeting.register { MockGreeting("one") }
        container.manager.push()
        container.greeting.register { MockGreeting("two") }
        container.manager.pop()
        #expect(container.greeting().text == "one")
        container.manager.pop()
        #expect(container.greeting().text == "hello")
        container.manager.pop()
        #expect(container.greeting().text == "hello")
    }

    @Test func containerDecoratorSeesEveryResolution() {
        let container = Container()
        let seen = Collector<String>()
        container.decorator { seen.append(String(describing: type(of: $0))) }
        _ = container.consumer()
        #expect(seen.values == ["Hello", "Consumer"])
        container.manager.decorator = nil
        _ = container.greeting()
        #expect(seen.values.count == 2)
    }

    @Test func optionsRoundTrip() {
        let manager = ContainerManager()
        #expect(manager.circularDependencyTesting)
        #expect(!manager.trace)
        #expect(manager.defaultScope == nil)
        manager.circularDependencyTesting = false
        manager.trace = true
        manager.defaultScope = .unique
        #expect(!manager.circularDependencyTesting)
        #expect(manager.trace)
        #expect(manager.defaultScope === Scope.unique)
    }

    /// The fast hit skips the general path only when none of these is set: a flag left out of `general`
    /// would be silently ignored on a cached hit, and one put in by mistake would slow every hit.
    @Test func theGeneralMaskIsExactlyTheFlagsThatChangeAHit() {
        let changesAHit: [ContainerManager.Flag] = [
            .trace, .decorator, .defaultScope, .options, .strict, .observed, .perRequest, .shutDown, .profile,
        ]
        #expect(ContainerManager.Flag.general == changesAHit.reduce(0) { $0 | $1.rawValue })
    }
}
