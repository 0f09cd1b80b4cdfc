import FactoryScopes
import FactoryTestSupport
import Testing

// A cache hit reads the cells its container's slot links to, wherever the
// strategy keeps them; for a singleton, that is the container's singleton
// storage. A container moved to another storage (as FactoryTesting does for each
// test) must stop hitting the previous storage's instances.

final class SwitchedSingletons: ManagedContainer {
    let manager = ContainerManager()

    var sync: Factory<Pool> { self { Pool(serial: 0) }.singleton }
    var async: AsyncFactory<Pool> { self { Pool(serial: 1) }.singleton }
}

@Suite struct SingletonStorageSwitchTests {
    @Test func aContainerMovedToAnotherStorageBuildsItsSingletonThereAndHitsIt() {
        let container = SwitchedSingletons()
        container.manager.useSingletons(SingletonStorage())
        let first = container.sync()
        #expect(container.sync() === first)  // a hit, through the link
        container.manager.useSingletons(SingletonStorage())
        let second = container.sync()
        #expect(second !== first)
        #expect(container.sync() === second)
    }

    @Test func anAsynchronousSingletonMovesWithItsContainerToo() async throws {
        let container = SwitchedSingletons()
        container.manager.useSingletons(SingletonStorage())
        let first = try await container.async()
        #expect(try await container.async() === first)
        container.manager.useSingletons(SingletonStorage())
        let second = try await container.async()
        #expect(second !== first)
        #expect(try await container.async() === second)
    }

    @Test func aSecondContainerHitsTheSingletonTheFirstBuilt() {
        let storage = SingletonStorage()
        let first = SwitchedSingletons()
        let second = SwitchedSingletons()
        first.manager.useSingletons(storage)
        second.manager.useSingletons(storage)
        let built = first.sync()
        #expect(second.sync() === built)
        #expect(second.sync() === built)
    }
}
