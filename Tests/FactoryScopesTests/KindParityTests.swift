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

/// Singletons with a context override in the definition, applying while `flag` is a runtime argument.
final class OverrideParityContainer: ManagedContainer {
    static let flag = "KindParityTests.definitionOverride"
    let manager = ContainerManager()

    var sync: Factory<Pool> { self { Pool(serial: 1) }.singleton.onArg(Self.flag) { Pool(serial: 2) } }
    var async: AsyncFactory<Pool> { self { Pool(serial: 1) }.singleton.context(.arg(Self.flag)) { Pool(serial: 2) } }
}

@Suite struct KindParityTests {
    /// A context override written in the definition is part of the definition: its
    /// singleton lives where the definition's does, which a registration of another
    /// container instance (written through to the storage's shared singleton) does
    /// not reach.
    @Test func aDefinitionsContextOverrideIsNotReachedByAnotherContainersRegistration() async throws {
        let storage = GlobalStorage()
        try await GlobalStorage.$testStorage.withValue(storage) { () async throws in
            let registered = OverrideParityContainer()
            let plain = OverrideParityContainer()
            registered.manager.useGlobalStorage(storage)
            plain.manager.useGlobalStorage(storage)
            registered.sync.register { Pool(serial: 3) }
            registered.async.register { Pool(serial: 3) }
            #expect(registered.sync().serial == 3)
            #expect(try await registered.async().serial == 3)

            FactoryContext.setArg(OverrideParityContainer.flag, forKey: OverrideParityContainer.flag)
            defer { FactoryContext.removeArg(forKey: OverrideParityContainer.flag) }
            #expect(plain.sync().serial == 2)
            #expect(try await plain.async().serial == 2)
        }
    }

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
