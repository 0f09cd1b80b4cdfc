import FactoryTestSupport
import FactoryTesting
import Testing

@Suite struct TaskLocalContainerTests {
    @Test func containerIsATaskLocalContainer() {
        let fresh = Container()
        Container.sharedTaskLocal.withValue(fresh) {
            #expect(Container.shared === fresh)
        }
    }

    @Test func aCustomContainerSwapsItsSharedInstanceThroughItsTaskLocal() {
        let fresh = TaskLocalOrders()
        TaskLocalOrders.sharedTaskLocal.withValue(fresh) {
            #expect(TaskLocalOrders.shared === fresh)
            fresh.checkout.register { "mock" }
            #expect(TaskLocalOrders.shared.checkout() == "mock")
        }
        #expect(TaskLocalOrders.shared !== fresh)
    }
}
