import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct ConcurrencyTests {
    @Test func resolveRegisterAndResetFromManyThreads() {
        let container = Container()
        let failures = Counter()
        runOnThreads(8) { index in
            for round in 0..<300 {
                switch (index + round) % 6 {
                case 0: container.greeting.register { MockGreeting("t\(index)") }
                case 1: container.greeting.reset()
                case 2: container.manager.push()
                case 3: container.manager.pop()
                case 4: container.numbered.register { Service(id: $0) }
                default: break
                }
                let text = container.consumer().greeting.text
                if text != "hello" && !text.hasPrefix("t") { failures.increment() }
                if container.numbered(round).id != round { failures.increment() }
            }
        }
        #expect(failures.value == 0)
    }

    @Test func registrationsMadeOnOneThreadAreSeenOnOthers() {
        let container = Container()
        container.greeting.register { MockGreeting("shared") }
        let texts = Collector<String>()
        runOnThreads(4) { _ in texts.append(container.greeting().text) }
        #expect(texts.values == Array(repeating: "shared", count: 4))
    }

    @Test func eachThreadRegistersInItsOwnContainerWithoutLoss() {
        let seen = Collector<Bool>()
        runOnThreads(8) { index in
            let container = Container()
            for round in 0..<100 {
                container.numbered.register { Service(id: $0 + index * 1000 + round) }
                seen.append(container.numbered(0).id == index * 1000 + round)
            }
        }
        #expect(seen.values.count == 800)
        #expect(seen.values.allSatisfy { $0 })
    }
}
