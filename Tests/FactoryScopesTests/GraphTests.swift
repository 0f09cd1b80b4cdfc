import FactoryScopes
import FactoryTestSupport
import Testing

@Suite struct GraphTests {
    @Test func oneInstancePerResolutionCycle() {
        let container = ScopeContainer()
        let consumer = container.consumer()
        #expect(consumer.ids === consumer.values)
        let next = container.consumer()
        #expect(next.ids !== consumer.ids)
    }

    @Test func separateTopLevelResolutionsAreSeparateCycles() {
        let container = ScopeContainer()
        #expect(container.ids() !== container.values())
    }

    @Test func concurrentCyclesNeverShare() {
        let container = ScopeContainer()
        let consumers = Collector<ProtocolConsumer>()
        runOnThreads(8) { _ in
            for _ in 0..<200 { consumers.append(container.consumer()) }
        }
        let all = consumers.values
        #expect(all.allSatisfy { $0.ids === $0.values })
        #expect(Set(all.map { ObjectIdentifier($0.ids) }).count == all.count)
    }
}
