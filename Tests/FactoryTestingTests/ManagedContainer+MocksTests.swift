import FactoryTestSupport
import FactoryTesting
import Testing

@Suite(.container) struct ManagedContainerMocksTests {
    @Test func mockRegistersSeveralFactoriesInOneBlock() {
        Container.shared.mock {
            $0.greeter.register { MockGreeter(name: "block") }
            $0.number.register { 3 }
            $0.label.register { MockGreeter(name: "label \($0)") }
        }
        #expect(Container.shared.greeter().name == "block")
        #expect(Container.shared.number() == 3)
        #expect(Container.shared.label("x").name == "label x")
    }

    @Test func mockAppliesSetsInOrder() {
        let first = Mocks<TaskLocalOrders> { $0.checkout.register { "first" } }
        let second = Mocks<TaskLocalOrders> { $0.checkout.register { "second" } }
        let orders = TaskLocalOrders()
        orders.mock(first, second)
        #expect(orders.checkout() == "second")
    }

    @Test func mocksAreUndoneWithTheContainer() {
        withContainer {
            Container.shared.mock { $0.number.register { 3 } }
        }
        #expect(Container.shared.number() == 0)
    }
}
