import FactoryScopes
import FactoryTestSupport
import Testing

// A synchronous and an asynchronous factory behave alike wherever the only
// difference is how a build runs and how a waiter waits. Each test here states
// one behaviour for both kinds.

final class ParityContainer: ManagedContainer {
    let manager = ContainerManager()
    let definitionDecorations = Collector<String>()

    var sync: Factory<Pool> {
        self { Pool(serial: 1) }.cached.decorator { _ in self.definitionDecorations.append("sync") }
    }
    var async: AsyncFactory<Pool> {
        self { Pool(serial: 1) }.cached.decorator { _ in self.definitionDecorations.append("async") }
    }
}

@Suite struct KindParityTests {
    /// A decorator applied at run time persists and wins over the definition's:
    /// it replaces it, for both kinds, until the factory is reset.
    @Test func aRunTimeDecoratorReplacesTheDefinitionsOne() async throws {
        let container = ParityContainer()
        let runTime = Collector<String>()
        container.sync.decorator { _ in runTime.append("sync") }
        container.async.decorator { _ in runTime.append("async") }
        _ = container.sync()
        _ = try await container.async()
        #expect(runTime.values == ["sync", "async"])
        #expect(container.definitionDecorations.values.isEmpty)

        container.sync.reset()
        container.async.reset()
        _ = container.sync()
        _ = try await container.async()
        #expect(runTime.values == ["sync", "async"])
        #expect(container.definitionDecorations.values == ["sync", "async"])
    }
}
