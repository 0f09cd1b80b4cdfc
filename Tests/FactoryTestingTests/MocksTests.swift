import FactoryTestSupport
import FactoryTesting
import Testing

@Suite(.container) struct MocksTests {
    static let greeterMock = Mocks<Container> { $0.greeter.register { MockGreeter(name: "first") } }
    static let numberMock = Mocks<Container> {
        $0.number.register { 1 }
        $0.greeter.register { MockGreeter(name: "second") }
    }

    @Test func registerInAppliesEveryRegistration() {
        let container = Container()
        Self.numberMock.register(in: container)
        #expect(container.number() == 1)
        #expect(container.greeter().name == "second")
        #expect(Container.shared.number() == 0)
    }

    @Test func registerWithoutAContainerUsesShared() {
        Self.numberMock.register()
        #expect(Container.shared.number() == 1)
    }

    @Test func setsCombineAndLaterRegistrationsWin() {
        (Self.greeterMock + Self.numberMock).register()
        #expect(Container.shared.greeter().name == "second")
        (Self.numberMock + Self.greeterMock).register()
        #expect(Container.shared.greeter().name == "first")
        #expect(Container.shared.number() == 1)
    }

    @Test func modifiersChainedInASetPersist() {
        Mocks<Container> { $0.singletonBox.register { Box(id: 3) }.scope(.cached) }.register()
        let container = Container.shared
        let box = container.singletonBox()
        #expect(box.id == 3)
        #expect(container.singletonBox() === box)
        // `.cached` after `register` moved it from the singleton storage to the container's cache.
        #expect(container.manager.hasCachedInstance(container.singletonBox.key))
        #expect(!container.manager.globalStorage.contains(container.singletonBox.key))
    }
}
