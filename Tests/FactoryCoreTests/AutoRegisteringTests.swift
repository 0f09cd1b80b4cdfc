import FactoryCore
import FactoryTestSupport
import Testing

final class AutoContainer: SharedContainer, AutoRegistering {
    static let shared = AutoContainer()
    let manager = ContainerManager()
    let calls = Counter()

    var greeting: Factory<any Greeting> { self { Hello() } }
    var slow: Factory<Service> { self { Service(id: 1) } }

    func autoRegister() {
        calls.increment()
        pause(milliseconds: 20)
        greeting.register { MockGreeting("auto") }
    }
}

@Suite struct AutoRegisteringTests {
    @Test func autoRegisterRunsBeforeTheFirstResolution() {
        let container = AutoContainer()
        #expect(container.greeting().text == "auto")
        _ = container.greeting()
        #expect(container.calls.value == 1)
    }

    @Test func autoRegisterRunsBeforeTheFirstRegistration() {
        let container = AutoContainer()
        container.greeting.register { MockGreeting("test") }
        #expect(container.greeting().text == "test")
        #expect(container.calls.value == 1)
    }

    @Test func autoRegisterRunsOnceUnderContention() {
        let container = AutoContainer()
        let texts = Collector<String>()
        runOnThreads(8) { _ in texts.append(container.greeting().text) }
        #expect(container.calls.value == 1)
        #expect(texts.values == Array(repeating: "auto", count: 8))
    }

    @Test func resetRunsItAgainOnNextUse() {
        // As in Factory: a reset removes what autoRegister() registered, and the next use registers it again.
        let container = AutoContainer()
        _ = container.slow()
        container.manager.reset()
        #expect(container.calls.value == 1)
        #expect(container.greeting().text == "auto")
        #expect(container.calls.value == 2)
        container.manager.reset(options: .context)
        #expect(container.greeting().text == "auto")
        #expect(container.calls.value == 2)
    }
}
