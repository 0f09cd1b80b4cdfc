import FactoryScopes
import FactoryTestSupport
import Testing

@Suite struct SharedTests {
    @Test func sharedLivesWhileHeld() {
        let container = ScopeContainer()
        var held: Thing? = container.sharedThing()
        let id = held.map(ObjectIdentifier.init)
        #expect(ObjectIdentifier(container.sharedThing()) == id)
        held = nil
        _ = held
        let next = container.sharedThing()
        #expect(container.builds.value == 2)
        #expect(container.sharedThing() === next)
    }

    @Test func optionalInstancesAreHeldWeaklyToo() {
        let container = ScopeContainer()
        let held = container.optionalShared()
        #expect(container.optionalShared() === held)
    }

    @Test func valuesAreNeverCached() {
        let container = ScopeContainer()
        _ = container.valueShared()
        _ = container.valueShared()
        #expect(container.builds.value == 2)
    }

    @Test func builtExactlyOnceUnderContention() {
        let container = ScopeContainer()
        let seen = Collector<Thing>()
        runOnThreads(8) { _ in seen.append(container.slowShared()) }
        #expect(container.builds.value == 1)
        #expect(Set(seen.values.map(ObjectIdentifier.init)).count == 1)
    }
}
