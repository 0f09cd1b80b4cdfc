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

    /// Kept while the test holds it; once the test lets go of the last strong
    /// reference, the next resolution builds again (counted: a freed instance's
    /// address may be reused, so identity would not tell).
    @Test func optionalInstancesAreHeldWeaklyToo() {
        let container = ScopeContainer()
        var held = container.optionalShared()
        #expect(held != nil)
        #expect(container.optionalShared() === held)
        #expect(container.builds.value == 1)
        held = nil
        _ = held
        let next = container.optionalShared()
        #expect(container.builds.value == 2, "the instance outlived its last strong reference")
        #expect(container.optionalShared() === next)
        #expect(container.builds.value == 2)
    }

    @Test func valuesAreNeverCached() {
        let container = ScopeContainer()
        _ = container.valueShared()
        _ = container.valueShared()
        #expect(container.builds.value == 2)
    }

    /// Eight threads resolve at once; the build ends only once the other seven wait for it.
    @Test func builtExactlyOnceUnderContention() {
        let container = ScopeContainer()
        let seen = Collector<Thing>()
        runOnThreads(8) { _ in seen.append(container.contendedShared()) }
        container.overlaps.expect(1)
        #expect(container.builds.value == 1)
        #expect(seen.values.count == 8)
        #expect(Set(seen.values.map(ObjectIdentifier.init)).count == 1)
    }
}
