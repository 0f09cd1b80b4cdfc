import FactoryScopes
import FactoryTestSupport
import Testing

// Factory's behaviour, for both kinds of factory: the last singleton a
// registration built is the one that containers whose registration describes
// the container type (made in `autoRegister()`) resolve.

final class StartUpSingletons: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()

    func autoRegister() {
        sync.register { Pool(serial: 1) }
        async.register { Pool(serial: 1) }
    }

    var sync: Factory<Pool> { self { Pool(serial: 0) }.singleton }
    var async: AsyncFactory<Pool> { self { Pool(serial: 0) }.singleton }
}

@Suite struct SingletonWriteThroughTests {
    @Test func aSynchronousSingletonBuiltByARegistrationIsTheOneStartUpRegistrationsSee() {
        withIsolatedSingletons { isolate in
            let app = isolate(StartUpSingletons())
            let request = isolate(StartUpSingletons())
            #expect(app.sync().serial == 1)
            request.sync.register { Pool(serial: 2) }
            let built = request.sync()
            #expect(built.serial == 2)
            #expect(app.sync() === built)
        }
    }

    @Test func anAsynchronousSingletonBuiltByARegistrationIsTheOneStartUpRegistrationsSee() async throws {
        let storage = GlobalStorage()
        try await GlobalStorage.$testStorage.withValue(storage) {
            let app = StartUpSingletons()
            let request = StartUpSingletons()
            app.manager.useGlobalStorage(storage)
            request.manager.useGlobalStorage(storage)
            #expect(try await app.async().serial == 1)
            request.async.register { Pool(serial: 2) }
            let built = try await request.async()
            #expect(built.serial == 2)
            #expect(try await app.async() === built)
        }
    }
}
