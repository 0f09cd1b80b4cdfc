import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct PromisedTests {
    @Test func registeredPromiseResolves() {
        let container = Container()
        container.promisedGreeting.register { MockGreeting("kept") }
        #expect(container.promisedGreeting()?.text == "kept")
        container.promisedNumbered.register { Service(id: $0) }
        #expect(container.promisedNumbered(8)?.id == 8)
    }

    @Test func unregisteredPromiseIsNilWhenErrorsAreOff() {
        let container = Container()
        container.manager.promiseTriggersError = false
        #expect(container.promisedGreeting() == nil)
        #expect(container.promisedNumbered(1) == nil)
    }

    #if DEBUG
    #if EXIT_TESTS
    @Test func unregisteredPromiseStopsADebugBuildNamingTheFactory() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().promisedGreeting()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Container.promisedGreeting<Optional<Greeting>> was promised but nothing is registered"))
    }
    #endif
    #endif
}
