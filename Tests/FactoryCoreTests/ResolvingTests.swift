import FactoryCore
import FactoryTestSupport
import Testing

final class TypedContainer: SharedContainer, Resolving {
    static let shared = TypedContainer()
    let manager = ContainerManager()
}

@Suite struct ResolvingTests {
    @Test func resolvesWhatWasRegisteredByType() {
        let container = TypedContainer()
        container.register { Service(id: 11) }
        container.register { MockGreeting("typed") as any Greeting }
        #expect(container.resolve(Service.self)?.id == 11)
        let greeting: (any Greeting)? = container.resolve()
        #expect(greeting?.text == "typed")
    }

    @Test func unregisteredTypesResolveNil() {
        let container = TypedContainer()
        #expect(container.resolve(Service.self) == nil)
        #expect(container.factory(Service.self) == nil)
    }

    @Test func factoryGivesTheRegisteredFactory() {
        let container = TypedContainer()
        container.register { Service(id: 2) }
        #expect(container.factory(Service.self)?().id == 2)
        container.manager.reset()
        #expect(container.resolve(Service.self) == nil)
    }

    @Test func registrationsAreExactTypes() {
        let container = TypedContainer()
        container.register { MockGreeting() }
        let greeting: (any Greeting)? = container.resolve()
        #expect(greeting == nil)
    }
}
