import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct DecoratorTests {
    @Test func definitionDecoratorRunsOnEveryResolution() {
        let container = Container()
        let seen = Counter()
        let factory = container.service.decorator { _ in seen.increment() }
        _ = factory()
        _ = factory()
        #expect(seen.value == 2)
    }

    @Test func decoratorWithFlagReportsNewInstances() {
        let container = Container()
        let flags = Collector<Bool>()
        let factory = container.service.decorator { _, isNew in flags.append(isNew) }
        _ = factory()
        #expect(flags.values == [true])
    }

    @Test func decoratorChainedAfterRegisterPersists() {
        let container = Container()
        let seen = Collector<Int>()
        container.service.register { Service(id: 5) }.decorator { seen.append($0.id) }
        _ = container.service()
        _ = container.service()
        #expect(seen.values == [5, 5])
        container.service.reset()
        _ = container.service()
        #expect(seen.values == [5, 5])
    }

    @Test func aDecoratorAppliedOutsideTheDefinitionPersists() {
        let container = Container()
        let seen = Counter()
        container.service.decorator { _ in seen.increment() }
        _ = container.service()
        _ = container.service()
        #expect(seen.value == 2)
        container.service.reset()
        _ = container.service()
        #expect(seen.value == 2)
    }

    @Test func aDecoratorInTheDefinitionDoesNotPersist() {
        let container = Container()
        _ = container.countingService()
        _ = container.countingService()
        #expect(definitionDecorations.value >= 2)
        let before = definitionDecorations.value
        // The same factory made without the definition's decorator: nothing was persisted.
        _ = Factory<Service>(container, key: "countingService") { Service() }()
        #expect(definitionDecorations.value == before)
    }

    @Test func aParameterFactorysDefinitionDecoratorSeesEachInstanceItBuilds() {
        let container = Container()
        _ = container.decoratedNumbered(1)
        _ = container.decoratedNumbered(2)
        #expect(parameterDecorations.values == [1, 2])
    }
}

private let definitionDecorations = Counter()
private let parameterDecorations = Collector<Int>()

extension Container {
    fileprivate var countingService: Factory<Service> {
        self { Service() }.decorator { _ in definitionDecorations.increment() }
    }

    fileprivate var decoratedNumbered: ParameterFactory<Int, Service> {
        self { Service(id: $0) }.decorator { parameterDecorations.append($0.id) }
    }
}
