import FactoryTestSupport
import Testing

@testable import FactoryTesting

@Suite(.container) struct ContainerTraitTests {
    @Test func eachTestGetsAFreshContainer() {
        #expect(Container.shared.greeter().name == "live")
        #expect(!Container.shared.manager.hasPersistedOptions)
        Container.shared.greeter.register { MockGreeter(name: "registered") }
        #expect(Container.shared.greeter().name == "registered")
    }

    @Test func theTestsContainerHasItsOwnGlobalStorage() {
        let container = Container.shared
        #expect(container.manager.globalStorage !== GlobalStorage.process)
        #expect(container.manager.globalStorage === GlobalStorage.testStorage)
        // A container the test creates itself uses the process's singletons: only
        // the containers the trait makes are the test's.
        #expect(Container().manager.globalStorage === GlobalStorage.process)
    }

    @Test func childTasksSeeTheTestsContainer() async {
        let container = Container.shared
        container.number.register { 7 }
        async let fromChild = Container.shared.number()
        let seen = await Task { Container.shared === container }.value
        #expect(await fromChild == 7)
        #expect(seen)
    }

    @Test(.container { $0.greeter.register { MockGreeter(name: "from test trait") } })
    func aTestTraitAddsToTheSuitesContainer() {
        #expect(Container.shared.greeter().name == "from test trait")
        #expect(TestIsolation.current.containers.contains(ObjectIdentifier(Container.self)))
    }
}

@Suite(.container { $0.greeter.register { MockGreeter(name: "suite") } })
struct SuiteMocksTests {
    @Test func suiteMocksApplyToEveryTest() {
        #expect(Container.shared.greeter().name == "suite")
    }

    @Test(.container { $0.number.register { 42 } })
    func testMocksAddToSuiteMocks() {
        #expect(Container.shared.greeter().name == "suite")
        #expect(Container.shared.number() == 42)
    }

    @Test(.container { $0.greeter.register { MockGreeter(name: "test") } })
    func testMocksWinOverSuiteMocks() {
        #expect(Container.shared.greeter().name == "test")
    }

    @Suite struct Nested {
        @Test func nestedSuitesInheritTheTrait() {
            #expect(Container.shared.greeter().name == "suite")
        }
    }
}

@Suite struct ContainerTraitMocksTests {
    static let offline = Mocks<Container> {
        $0.greeter.register { MockGreeter(name: "offline") }
        $0.number.register { 404 }
    }

    @Test(.container(offline)) func aMocksSetRegistersEverything() {
        #expect(Container.shared.greeter().name == "offline")
        #expect(Container.shared.number() == 404)
    }

    /// The test that the mocks closure of ``theMocksClosureRunsInsideTheTest()`` ran in.
    static let mocksClosureRanIn = LockedBox<String?>(nil)

    @Test(
        .container { container in
            ContainerTraitMocksTests.mocksClosureRanIn.withLock { $0 = Test.current?.name }
            container.number.register { 77 }
        })
    func theMocksClosureRunsInsideTheTest() {
        #expect(Self.mocksClosureRanIn.withLock { $0 } == Test.current?.name, "the closure ran outside the test, or never")
        #expect(Container.shared.number() == 77, "the closure registered in this test's container")
    }
}

private struct TraitSetupError: Error {}

@Suite struct TaskLocalCustomContainerTests {
    @Test(.container(TaskLocalOrders.self) { $0.checkout.register { "mock checkout" } })
    func aTaskLocalContainerGetsAFreshInstance() {
        #expect(TaskLocalOrders.shared.checkout() == "mock checkout")
        #expect(TaskLocalOrders.shared.manager.globalStorage === GlobalStorage.testStorage)
    }

    @Test(.container, .container(TaskLocalOrders.self))
    func twoContainersOfOneTestShareItsGlobalStorage() {
        #expect(TaskLocalOrders.shared.manager.globalStorage === Container.shared.manager.globalStorage)
        #expect(Container.shared.manager.globalStorage !== GlobalStorage.process)
    }

    @Test(.container(TaskLocalOrders.self), arguments: 0..<8)
    func everyCaseHasItsOwnInstance(_ id: Int) async {
        TaskLocalOrders.shared.checkout.register { "checkout \(id)" }
        let receipt = TaskLocalOrders.shared.receipt()
        await Task.yield()
        #expect(TaskLocalOrders.shared.checkout() == "checkout \(id)")
        #expect(TaskLocalOrders.shared.receipt() === receipt)
    }
}

/// Tests that isolate `static let` containers. They run one at a time, through the lane.
@Suite struct StaticCustomContainerTests {
    /// Six scopes of the trait, started at once, run one at a time. Each stays
    /// inside until all six have started and every other one not yet finished is
    /// queued on the lane, so scopes that did not take turns would be seen inside
    /// together, whatever the machine's speed or the runner's parallelism. (The
    /// lane's count includes other tests queued on it: they can end the wait
    /// early, never make it longer.)
    @Test func staticContainersAreSnapshottedOneScopeAtATime() async throws {
        let trait = ContainerTrait.container(StaticOrders.self) { $0.checkout.register { "mock checkout" } }
        let started = LockedBox(0)
        let inside = LockedBox(0)
        let finished = LockedBox(0)
        let test = try #require(Test.current)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<6 {
                group.addTask {
                    started.withLock { $0 += 1 }
                    try await trait.provideScope(for: test, testCase: Test.Case.current) {
                        let entered = inside.withLock { count in
                            count += 1
                            return count
                        }
                        #expect(entered == 1, "scope \(id) ran alongside another")
                        #expect(StaticOrders.shared.checkout() == "mock checkout")
                        StaticOrders.shared.checkout.register { "checkout \(id)" }
                        try await waitFor("the other scopes to queue behind scope \(id)") {
                            let others = 5 - finished.withLock { $0 }
                            let queued = await SerialLane.shared.waiterCount
                            return (started.withLock { $0 } == 6 && queued >= others) || inside.withLock { $0 } > 1
                        }
                        #expect(StaticOrders.shared.checkout() == "checkout \(id)")
                        inside.withLock { $0 -= 1 }
                        finished.withLock { $0 += 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(finished.withLock { $0 } == 6)
    }

    @Test(.container(StaticOrders.self), .container(StaticPayments.self) { $0.method.register { "mock card" } })
    func twoStaticContainersNestWithoutWaitingForEachOther() {
        #expect(StaticPayments.shared.method() == "mock card")
        #expect(TestIsolation.current.holdsLane)
    }

    // The lane, held through StaticPayments' trait, keeps the other StaticOrders tests
    // out while these look at StaticOrders before and after a nested scope.
    @Test(.container(StaticPayments.self)) func theSnapshotIsRestoredAfterTheTest() async throws {
        let trait = ContainerTrait.container(StaticOrders.self) { $0.checkout.register { "inside" } }
        let before = StaticOrders.shared.receipt()
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
            #expect(StaticOrders.shared.checkout() == "inside")
            StaticOrders.shared.receipt.register { Box(id: 1) }
            #expect(StaticOrders.shared.receipt().id == 1)
            _ = StaticOrders.shared.cachedReceipt()
        }
        #expect(StaticOrders.shared.checkout() == "live checkout")
        // The mock's singleton went with its registration; the real one was never replaced.
        #expect(StaticOrders.shared.receipt().id == 0)
        #expect(StaticOrders.shared.receipt() === before)
        #expect(!StaticOrders.shared.manager.hasCachedInstance(StaticOrders.shared.cachedReceipt.key))
    }

    @Test(.container(StaticPayments.self)) func theSnapshotIsRestoredWhenTheTestThrows() async {
        let trait = ContainerTrait.container(StaticOrders.self) { $0.checkout.register { "inside" } }
        await #expect(throws: TraitSetupError.self) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                throw TraitSetupError()
            }
        }
        #expect(StaticOrders.shared.checkout() == "live checkout")
    }

    @Test func theLaneIsFreeAfterAThrowingTest() async throws {
        let trait = ContainerTrait.container(StaticOrders.self)
        await #expect(throws: TraitSetupError.self) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                throw TraitSetupError()
            }
        }
        // Taking the lane again must not wait forever: had the throwing test kept it,
        // the watchdog would cancel this wait and fail the test, naming it.
        try await withAsyncWatchdog("the lane of static-let containers stayed taken after a test threw") {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                #expect(TestIsolation.current.holdsLane)
            }
        }
    }
}

@Suite struct TaskLocalScopeEdgeTests {
    @Test func aThrowingTestLeavesNoBindingBehind() async {
        let outer = Container.shared
        await #expect(throws: TraitSetupError.self) {
            try await ContainerTrait.container.provideScope(for: Test.current!, testCase: Test.Case.current) {
                #expect(Container.shared !== outer)
                throw TraitSetupError()
            }
        }
        #expect(Container.shared === outer)
        #expect(GlobalStorage.testStorage == nil)
    }
}
