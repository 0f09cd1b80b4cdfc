import FactoryTestSupport
import Testing

@testable import FactoryTesting

// An unregistered `promised()` factory resolved inside a FactoryTesting test fails
// that test (naming the factory) and resolves to nil; the process and the other
// tests go on. Release builds resolve it to nil without a failure, as in Factory.

@Suite(.container) struct PromiseInTestsTests {
    @Test func anUnregisteredPromiseFailsTheTestAndResolvesToNil() {
        #if DEBUG
        withKnownIssue("An unregistered promised() factory fails the test that resolves it") {
            #expect(Container.shared.promisedGreeter() == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Container.promisedGreeter<Optional<Greeter>> was promised") }
                // Reported at this test, not inside FactoryTesting.
                && issue.sourceLocation?.fileName == "PromiseInTestsTests.swift"
                && issue.sourceLocation?.line == Test.current?.sourceLocation.line
        }
        #else
        #expect(Container.shared.promisedGreeter() == nil)
        #endif
    }

    @Test func aPromiseInsideAnotherFactoryAlsoResolvesToNil() {
        #if DEBUG
        withKnownIssue("An unregistered promised() factory fails the test, also when another factory resolves it") {
            #expect(Container.shared.usesPromise() == "none")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Container.promisedGreeter") }
                && issue.sourceLocation?.fileName == "PromiseInTestsTests.swift"
        }
        #else
        #expect(Container.shared.usesPromise() == "none")
        #endif
    }

    @Test func aRegisteredPromiseResolvesWithoutAFailure() {
        Container.shared.promisedGreeter.register { MockGreeter(name: "kept") }
        #expect(Container.shared.promisedGreeter()?.name == "kept")
    }
}

@Suite struct DefaultContainerStorageTests {
    // Run in a fresh process, so this is the first use of the default container.
    #if EXIT_TESTS
    @Test func theDefaultContainerKeepsTheProcessSingletonsWhicheverTestUsesItFirst() async {
        await #expect(processExitsWith: .success) {
            let testStorage = GlobalStorage()
            let built = GlobalStorage.$testStorage.withValue(testStorage) {
                // As if the first test to touch `Container.shared` ran inside a `.container` trait.
                Container.shared.singletonBox()
            }
            precondition(Container.shared.manager.globalStorage === GlobalStorage.process)
            precondition(Container.shared.singletonBox() === built, "the default container's singleton")
            Scope.singleton.reset()
            precondition(Container.shared.singletonBox() !== built, "a reset outside any test reaches it")
        }
    }
    #endif
}

@Suite struct FatalMessagesNameTheTestTests {
    #if EXIT_TESTS
    @Test func aCycleInsideAnXCTestHelperNamesTheRunningTest() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            XCTestScope.run("testCheckoutFlow") {
                _ = Container().cycleA()
            }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "FactoryCore: circular dependency chain - Container.cycleA<CycleA> > Container.cycleB<CycleB> > "
                    + "Container.cycleA<CycleA> (in test testCheckoutFlow)"))
    }
    #endif
}
