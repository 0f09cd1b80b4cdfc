import FactoryScopes
import FactoryTestSupport
import Testing

@Suite struct TimeToLiveTests {
    @Test func keepsTheInstanceUntilItExpires() {
        let container = ScopeContainer()
        let first = container.ttlThing()
        #expect(container.ttlThing() === first)
        pause(milliseconds: 80)
        let second = container.ttlThing()
        #expect(second !== first)
        #expect(container.ttlThing() === second)
    }

    @Test func hitsDoNotExtendTheLifetime() {
        let container = ScopeContainer()
        let first = container.ttlThing()
        for _ in 0..<4 {
            pause(milliseconds: 20)
            _ = container.ttlThing()
        }
        #expect(container.ttlThing() !== first)
    }

    @Test func appliesToSingletonsToo() {
        withIsolatedSingletons { isolate in
            let container = isolate(ScopeContainer())
            let first = container.ttlSingleton()
            #expect(container.ttlSingleton() === first)
            pause(milliseconds: 80)
            #expect(container.ttlSingleton() !== first)
        }
    }

    @Test func aTimeToLiveSetAtRunTimePersists() {
        // Factory's own example: `Container.shared.singletonService.timeToLive(0.01)`.
        withIsolatedSingletons { isolate in
            let container = isolate(ScopeContainer())
            container.single.timeToLive(0.05)
            let first = container.single()
            #expect(container.single() === first)
            pause(milliseconds: 80)
            #expect(container.single() !== first)
        }
    }

    @Test func anIntervalBeyondTheClockNeverExpires() {
        let container = ScopeContainer()
        let forever = container.cachedThing.timeToLive(1e300)
        let first = forever()
        #expect(container.cachedThing() === first)
        #expect(forever() === first)
    }
}
