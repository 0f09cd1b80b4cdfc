import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct ParameterFactoryTests {
    @Test func passesTheParameterToTheClosure() {
        let container = Container()
        #expect(container.numbered(3).id == 3)
        #expect(container.numbered.resolve(4).id == 4)
    }

    @Test func registrationReceivesTheParameter() {
        let container = Container()
        container.numbered.register { Service(id: $0 + 100) }
        #expect(container.numbered(1).id == 101)
        container.numbered.reset()
        #expect(container.numbered(1).id == 1)
    }

    @Test func tuplesCarrySeveralParameters() {
        let container = Container()
        let sum = ParameterFactory<(Int, Int), Int>(container, key: "sum") { $0.0 + $0.1 }
        #expect(sum((2, 3)) == 5)
    }

    @Test func formalAndSugaredDefinitionsAgree() {
        let orders = OrderContainer()
        let formal = ParameterFactory<Int, Service>(orders, key: "numbered") { Service(id: $0 * 10) }
        #expect(formal(2).id == orders.numbered(2).id)
    }
}
