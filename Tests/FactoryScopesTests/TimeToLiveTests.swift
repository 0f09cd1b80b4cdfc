import FactoryScopes
import FactoryTestSupport
import Testing

// No assertion here depends on the machine's speed: a hit is checked on factories
// whose interval (an hour) no test outlives, and expiry after sleeping longer than
// the interval (a sleep lasts at least as long as asked, never less).
@Suite struct TimeToLiveTests {
    @Test func keepsTheInstanceWithinTheInterval() {
        let container = ScopeContainer()
        let first = container.hourThing()
        #expect(container.hourThing() === first)
        #expect(container.hourThing() === first)
    }

    @Test func rebuildsOnceTheIntervalHasPassed() {
        let container = ScopeContainer()
        let first = container.ttlThing()
        pause(milliseconds: 80)
        #expect(container.ttlThing() !== first)
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
            let kept = container.hourSingleton()
            #expect(container.hourSingleton() === kept)
            #expect(isolate(ScopeContainer()).hourSingleton() === kept)
            let first = container.ttlSingleton()
            pause(milliseconds: 80)
            #expect(container.ttlSingleton() !== first)
        }
    }

    @Test func aTimeToLiveSetAtRunTimePersists() {
        // Factory's own example: `Container.shared.singletonService.timeToLive(0.01)`.
        // Without the run-time interval the singleton would never be rebuilt.
        withIsolatedSingletons { isolate in
            let container = isolate(ScopeContainer())
            container.single.timeToLive(0.01)
            let first = container.single()
            pause(milliseconds: 50)
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
