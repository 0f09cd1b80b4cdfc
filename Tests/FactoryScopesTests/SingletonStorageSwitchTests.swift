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
        container.manager.useGlobalStorage(GlobalStorage())
        let first = container.sync()
        #expect(container.sync() === first)  // a hit, through the link
        container.manager.useGlobalStorage(GlobalStorage())
        let second = container.sync()
        #expect(second !== first)
        #expect(container.sync() === second)
    }

    @Test func anAsynchronousSingletonMovesWithItsContainerToo() async throws {
        let container = SwitchedSingletons()
        container.manager.useGlobalStorage(GlobalStorage())
        let first = try await container.async()
        #expect(try await container.async() === first)
        container.manager.useGlobalStorage(GlobalStorage())
        let second = try await container.async()
        #expect(second !== first)
        #expect(try await container.async() === second)
    }

    @Test func aSecondContainerHitsTheSingletonTheFirstBuilt() {
        let storage = GlobalStorage()
        let first = SwitchedSingletons()
        let second = SwitchedSingletons()
        first.manager.useGlobalStorage(storage)
        second.manager.useGlobalStorage(storage)
        let built = first.sync()
        #expect(second.sync() === built)
        #expect(second.sync() === built)
    }
}

// A storage that a container stops using is freed once no reader is inside a
// read section. Every lock-free read of the container's storage must therefore
// happen inside one (or under the container's lock): a resolution of a start-up
// registration's singleton, `reset(options: .singletons)` and shutdown each read
// it while another thread moves the container to a new storage. A read outside
// a section reads freed memory, which AddressSanitizer reports and a plain build
// may crash on.
@Suite struct SingletonStorageSwitchRaceTests {
    @Test func readersOfAContainersStorageSurviveItBeingSwappedAndFreed() {
        let container = StartUpSingletons()
        let rounds = 50_000
        let finished = finishes(2) { index in
            if index == 0 {
                for _ in 0..<rounds { container.manager.useGlobalStorage(GlobalStorage()) }
            } else {
                for round in 0..<rounds {
                    // A start-up registration's singleton is read through the storage.
                    precondition(container.sync().serial == 1)
                    if round % 64 == 0 { container.manager.reset(options: .singletons) }
                }
            }
        }
        #expect(finished)
    }
}
