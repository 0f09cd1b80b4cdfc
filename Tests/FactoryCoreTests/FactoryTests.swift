import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct FactoryTests {
    @Test func resolvesANewInstanceEachTimeByDefault() {
        let container = Container()
        let first = container.service()
        let second = container.service.resolve()
        #expect(first !== second)
    }

    /// The same definition written both ways: each takes its property's name,
    /// keeps its scope, and is replaced by a registration.
    @Test func sugarAndFormalDefinitionsResolveTheSame() {
        let container = Container()
        let forms = [container.sugared, container.formal]
        #expect(forms.map(\.registration.key.description) == ["Container.sugared<Service>", "Container.formal<Service>"])
        for factory in forms {
            let name = factory.registration.key.description
            let first = factory()
            #expect(first.id == 5, "\(name)")
            #expect(factory() === first, "\(name) lost its scope")
            factory.register { Service(id: 6) }
            #expect(factory().id == 6, "\(name) ignored its registration")
        }
    }

    @Test func factoriesResolveTheirDependenciesFromTheSameContainer() {
        let container = Container()
        container.greeting.register { MockGreeting("deep") }
        #expect(container.consumer().greeting.text == "deep")
    }

    @Test func registerReplacesTheDefinitionForThatContainerOnly() {
        let first = Container()
        let second = Container()
        first.greeting.register { MockGreeting() }
        #expect(first.greeting().text == "mock")
        #expect(second.greeting().text == "hello")
    }

    @Test func laterRegistrationWins() {
        let container = Container()
        container.greeting.register { MockGreeting("one") }
        container.greeting.register { MockGreeting("two") }
        #expect(container.greeting().text == "two")
    }

    @Test func resetRestoresTheDefinition() {
        let container = Container()
        container.greeting.register { MockGreeting() }
        container.greeting.reset()
        #expect(container.greeting().text == "hello")
        container.greeting.register { MockGreeting() }
        container.greeting.reset(.registration)
        #expect(container.greeting().text == "hello")
    }

    @Test func resetOfScopeOrContextKeepsTheRegistration() {
        let container = Container()
        container.greeting.register { MockGreeting() }
        container.greeting.reset(.scope)
        container.greeting.reset(.context)
        container.greeting.reset(.none)
        #expect(container.greeting().text == "mock")
    }

    @Test func optionalFactoriesResolveNilUntilRegistered() {
        let container = Container()
        #expect(container.optionalGreeting() == nil)
        container.optionalGreeting.register { MockGreeting() }
        #expect(container.optionalGreeting()?.text == "mock")
        container.optionalGreeting.reset()
        #expect(container.optionalGreeting() == nil)
    }

    @Test func functionalInjectionResolvesClosures() {
        let container = Container()
        let loader = Factory<@Sendable () -> [Int]>(container, key: "loader") { { [1, 2, 3] } }
        #expect(loader()() == [1, 2, 3])
        loader.register { { [] } }
        #expect(loader()().isEmpty)
    }

    @Test func keyNamesTheContainerPropertyAndType() {
        let container = Container()
        #expect(container.greeting.key.description == "Container.greeting<Greeting>")
        #expect(OrderContainer().service.key.description == "OrderContainer.service<Service>")
    }

    @Test func sameNameInTwoContainerTypesNeverShareARegistration() {
        let container = Container()
        let orders = OrderContainer()
        #expect(container.greeting.key != orders.greeting.key)
        #expect(container.service.key != orders.service.key)
    }

    @Test func keysWithEqualNamesAtDifferentAddressesAreEqual() {
        let container = Container()
        let literal = Factory<Service>(container, key: "service") { Service() }
        #expect(literal.key == container.service.key)
        #expect(literal.key.hashValue == container.service.key.hashValue)
        literal.register { Service(id: 42) }
        #expect(container.service().id == 42)
    }
}

extension Container {
    /// One definition, written with the container's sugar and in the formal form.
    fileprivate var sugared: Factory<Service> { self { Service(id: 5) }.scope(CoreScopes.cached) }
    fileprivate var formal: Factory<Service> { Factory(self) { Service(id: 5) }.scope(CoreScopes.cached) }
}
