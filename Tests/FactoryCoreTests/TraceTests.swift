import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct TraceTests {
    @Test func traceLogsOneLinePerResolutionWithDepth() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        let consumer = container.consumer()
        let logged = lines.values
        #expect(logged.count == 2)
        let consumerID = UInt(bitPattern: ObjectIdentifier(consumer))
        let greetingID = UInt(bitPattern: ObjectIdentifier(consumer.greeting))
        // Factory's format: depth first, then the indent; F for an instance the
        // definition built (R registration, O context override, C cached).
        #expect(logged.first == "0: Container.consumer<Consumer> = F:\(consumerID) Consumer")
        #expect(logged.last == "1:     Container.greeting<Greeting> = F:\(greetingID) Hello")
    }

    @Test func traceIsWrittenWhenTheCycleEnds() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        _ = container.service()
        _ = container.numbered(2)
        #expect(lines.values.count == 2)
        #expect(lines.values.allSatisfy { $0.hasPrefix("0: ") })
    }

    @Test func valuesHaveNoAddress() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        let number = Factory<Int>(container, key: "number") { 42 }
        _ = number()
        #expect(lines.values == ["0: Container.number<Int> = F:0 Int"])
    }

    @Test func traceOffLogsNothing() {
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        _ = container.consumer()
        #expect(lines.values.isEmpty)
    }
}
