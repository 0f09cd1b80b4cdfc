import FactoryTestSupport
import FactoryTesting
import Testing

private struct Failure: Error {}

@Suite(.container) struct WithContainerTests {
    @Test func restoresSharedContainerWhenTheBlockReturns() {
        let result = withContainer {
            Container.shared.number.register { 5 }
            return Container.shared.number()
        }
        #expect(result == 5)
        #expect(Container.shared.number() == 0)
    }

    @Test func restoresWhenTheBlockThrows() {
        let singleton = Container.shared.singletonBox()
        #expect(throws: Failure.self) {
            try withContainer {
                Container.shared.number.register { 5 }
                Container.shared.singletonBox.register { Box(id: 5) }
                _ = Container.shared.singletonBox()
                throw Failure()
            }
        }
        #expect(Container.shared.number() == 0)
        #expect(Container.shared.singletonBox() === singleton)
    }

    @Test func restoresAGivenContainer() {
        let orders = TaskLocalOrders()
        withContainer(orders) { orders in
            orders.checkout.register { "mock" }
            #expect(orders.checkout() == "mock")
        }
        #expect(orders.checkout() == "live checkout")
    }

    @Test func asyncBlocksRestoreToo() async {
        await #expect(throws: Failure.self) {
            try await withContainer {
                Container.shared.number.register { 5 }
                await Task.yield()
                #expect(Container.shared.number() == 5)
                throw Failure()
            }
        }
        #expect(Container.shared.number() == 0)
        let value = await withContainer(Container.shared) { container in
            container.number.register { 6 }
            await Task.yield()
            return container.number()
        }
        #expect(value == 6)
        #expect(Container.shared.number() == 0)
    }

    @Test func blocksNest() {
        withContainer {
            Container.shared.number.register { 1 }
            withContainer {
                Container.shared.number.register { 2 }
                #expect(Container.shared.number() == 2)
            }
            #expect(Container.shared.number() == 1)
        }
        #expect(Container.shared.number() == 0)
    }

    @Test func withMocksRegistersASetForTheBlock() async {
        let mocks = Mocks<Container> {
            $0.number.register { 8 }
            $0.greeter.register { MockGreeter(name: "mocked") }
        }
        withMocks(mocks) {
            #expect(Container.shared.number() == 8)
            #expect(Container.shared.greeter().name == "mocked")
        }
        #expect(Container.shared.number() == 0)
        await withMocks(mocks) {
            await Task.yield()
            #expect(Container.shared.number() == 8)
        }
        #expect(Container.shared.greeter().name == "live")
    }
}
