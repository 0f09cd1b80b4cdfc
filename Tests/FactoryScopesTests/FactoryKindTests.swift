import FactoryScopes
import FactoryTestSupport
import Testing

// A synchronous and an asynchronous factory with the same container, name and
// types are two factories: their registrations and caches never meet.

final class KindService: Sendable {
    let kind: String
    init(_ kind: String) { self.kind = kind }
}

final class KindContainer: ManagedContainer {
    let manager = ContainerManager()

    // Overloads on the return type: both keys are "clash()".
    func clash() -> Factory<KindService> { self { KindService("sync") }.cached }
    func clash() -> AsyncFactory<KindService> { self { KindService("async") }.cached }

    // One explicit key for both kinds.
    var syncKeyed: Factory<KindService> { Factory(self, key: "keyed") { KindService("sync") }.singleton }
    var asyncKeyed: AsyncFactory<KindService> { AsyncFactory(self, key: "keyed") { KindService("async") }.singleton }

    var syncParameter: ParameterFactory<Int, KindService> {
        ParameterFactory(self, key: "parameter") { KindService("sync \($0)") }.cached
    }
    var asyncParameter: AsyncParameterFactory<Int, KindService> {
        AsyncParameterFactory(self, key: "parameter") { KindService("async \($0)") }.cached
    }
}

/// Stops the child process unless `resolve` builds or finds an instance of `kind`.
func expectKind(_ resolve: @autoclosure () async throws -> KindService, _ kind: String) async {
    let resolved = try? await resolve()
    precondition(resolved?.kind == kind, "expected \(kind), got \(resolved?.kind ?? "an error")")
}

@Suite struct FactoryKindTests {
    // Each runs in a child process: sharing state between the kinds crashed (an
    // unchecked downcast of the other kind's box or cell).

    #if EXIT_TESTS
    @Test func overloadsOfOneNameKeepTheirOwnCaches() async {
        await #expect(processExitsWith: .success) {
            let container = KindContainer()
            let sync: Factory<KindService> = container.clash()
            let async: AsyncFactory<KindService> = container.clash()
            precondition(sync().kind == "sync")
            await expectKind(try await async(), "async")
            precondition(sync().kind == "sync")
            await expectKind(try await async(), "async")
        }
    }
    #endif

    #if EXIT_TESTS
    @Test func registeringOneKindLeavesTheOtherAlone() async {
        await #expect(processExitsWith: .success) {
            let container = KindContainer()
            let sync: Factory<KindService> = container.clash()
            let async: AsyncFactory<KindService> = container.clash()
            sync.register { KindService("sync mock") }
            await expectKind(try await async(), "async")
            async.register { KindService("async mock") }
            precondition(sync().kind == "sync mock")
            await expectKind(try await async(), "async mock")
        }
    }
    #endif

    #if EXIT_TESTS
    @Test func oneExplicitKeyForBothKindsKeepsTwoSingletons() async {
        await #expect(processExitsWith: .success) {
            let container = KindContainer()
            precondition(container.syncKeyed().kind == "sync")
            await expectKind(try await container.asyncKeyed(), "async")
            precondition(container.syncKeyed().kind == "sync")
            container.asyncKeyed.register { KindService("async mock") }
            precondition(container.syncKeyed().kind == "sync")
            await expectKind(try await container.asyncKeyed(), "async mock")
        }
    }
    #endif

    #if EXIT_TESTS
    @Test func parameterFactoriesOfBothKindsKeepTheirOwnCaches() async {
        await #expect(processExitsWith: .success) {
            let container = KindContainer()
            await expectKind(try await container.asyncParameter(1), "async 1")
            precondition(container.syncParameter(1).kind == "sync 1")
            await expectKind(try await container.asyncParameter(2), "async 1")
        }
    }
    #endif
}
