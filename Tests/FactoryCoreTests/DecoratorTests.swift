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
        let container = DecoratedContainer()
        _ = container.countingService()
        _ = container.countingService()
        #expect(container.definitionDecorations.value == 2)
        // The same factory made without the definition's decorator: nothing was persisted.
        _ = Factory<Service>(container, key: "countingService") { Service() }()
        #expect(container.definitionDecorations.value == 2)
    }

    @Test func aParameterFactorysDefinitionDecoratorSeesEachInstanceItBuilds() {
        let container = DecoratedContainer()
        _ = container.decoratedNumbered(1)
        _ = container.decoratedNumbered(2)
        #expect(container.parameterDecorations.values == [1, 2])
    }
}

/// A container whose definitions' decorators record into the container itself, so
/// that each test counts only its own resolutions, however often the suite runs in
/// one process (a global would keep what an earlier run recorded).
private final class DecoratedContainer: ManagedContainer {
    let manager = ContainerManager()
    let definitionDecorations = Counter()
    let parameterDecorations = Collector<Int>()

    var countingService: Factory<Service> {
        self { Service() }.decorator { _ in self.definitionDecorations.increment() }
    }

    var decoratedNumbered: ParameterFactory<Int, Service> {
        self { Service(id: $0) }.decorator { self.parameterDecorations.append($0.id) }
    }
}
