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

    @Test func sameIntervalIsTheSameScope() {
        let container = ScopeContainer()
        let a = container.unique.timeToLive(10)
        let b = container.unique.timeToLive(10)
        #expect(a.registration.scope === b.registration.scope)
        #expect(a() === b())
    }
}
