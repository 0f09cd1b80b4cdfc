import FactoryCore
import FactoryTestSupport
import Testing

/// Scopes made on core's strategy protocol: FactoryCore's tests do not link
/// FactoryScopes. Both keep instances in the container's own cells; they differ
/// in the lifetime the captive-dependency check sees.
enum CoreScopes {
    static let singleton = Scope(
        keeping: .cells, label: "singleton", lifetime: .process, strategy: ContainerCellsForTests())
    static let cached = Scope(keeping: .cells, label: "cached", lifetime: .container, strategy: ContainerCellsForTests())
}

/// A strategy written against FactoryCore alone: the container's cells, strong.
final class ContainerCellsForTests: ScopeStrategy {
    func location(
        _ scope: Scope, key: FactoryKey, box: RegistrationBoxBase?, containerCells: CellSet, manager: ContainerManager
    ) -> CacheLocation? {
        CacheLocation(cells: containerCells, linked: true)
    }
}

private final class PerRequest: ManagedContainer {
    let manager = ContainerManager()
    var user: Factory<Int> { self { 7 }.scope(CoreScopes.cached) }
}

/// A long-lived container that does not log captures itself.
private final class Library: ManagedContainer {
    let manager = ContainerManager()
    var pages: Factory<Int> { self { 12 }.scope(CoreScopes.cached) }
    var book: Factory<[Int]> { self { [self.pages()] } }
}

private final class App: ManagedContainer {
    let manager = ContainerManager()
    let request = PerRequest()
    let library = Library()
    var coreCaptiveHolder: Factory<[Int]> { self { [self.request.user()] }.scope(CoreScopes.singleton) }
    var coreCachedHolder: Factory<[Int]> { self { [self.request.user()] }.scope(CoreScopes.cached) }
    var asyncCount: AsyncFactory<Int> { self { 3 }.scope(CoreScopes.cached) }
    var asyncUnique: AsyncFactory<[Int]> { self { [try await self.asyncCount()] } }
    var asyncSingleton: AsyncFactory<[Int]> { self { try await self.asyncUnique() }.scope(CoreScopes.singleton) }
    var asyncHoldsBook: AsyncFactory<[Int]> { self { self.library.book() }.scope(CoreScopes.singleton) }
    var asyncHoldsRequest: AsyncFactory<[Int]> { self { [self.request.user()] }.scope(CoreScopes.cached) }
}

@Suite struct CaptiveDependencyCoreTests {
    @Test func containersAreNotPerRequestAndDoNotLogCapturesByDefault() {
        let manager = ContainerManager()
        #expect(!manager.isPerRequest)
        #expect(!manager.logsCaptiveDependencies)
    }

    @Test func aPerRequestCacheHitIsSeenByALoggingContainer() {
        let app = App()
        app.request.manager.isPerRequest = true
        let lines = Collector<String>()
        app.manager.logger = { lines.append($0) }
        app.manager.logsCaptiveDependencies = true
        // Cached before the holder is built: the capture is a hit on the per-request container.
        _ = app.request.user()
        _ = app.coreCachedHolder()
        #expect(
            lines.values == [
                "FactoryCore: captive dependency - App.coreCachedHolder<Array<Int>> (cached) resolves "
                    + "PerRequest.user<Int> (cached, per-request) and keeps it beyond its scope; chain: "
                    + "App.coreCachedHolder<Array<Int>> > PerRequest.user<Int>"
            ])
    }

    @Test func nothingIsLoggedWhenTheRequestContainerIsNotMarked() {
        let app = App()
        let lines = Collector<String>()
        app.manager.logger = { lines.append($0) }
        app.manager.logsCaptiveDependencies = true
        _ = app.coreCachedHolder()
        #expect(lines.values.isEmpty)
        app.request.manager.isPerRequest = true
        app.manager.logsCaptiveDependencies = false
        _ = app.coreCaptiveHolder()
        #expect(lines.values.isEmpty)
    }

    @Test func anAsyncSingletonAwaitingACachedFactoryIsLoggedOnceEvenWhenItIsAlreadyCached() async throws {
        let app = App()
        let lines = Collector<String>()
        app.manager.logger = { lines.append($0) }
        app.manager.logsCaptiveDependencies = true
        // A hit on the captured factory, found through a unique factory by a build
        // that runs in a task of its own.
        _ = try await app.asyncCount()
        #expect(try await app.asyncSingleton() == [3])
        _ = try await app.asyncSingleton()
        #expect(
            lines.values == [
                "FactoryCore: captive dependency - App.asyncSingleton<Array<Int>> (singleton) resolves "
                    + "App.asyncCount<Int> (cached) and keeps it beyond its scope; chain: "
                    + "App.asyncSingleton<Array<Int>> > App.asyncUnique<Array<Int>> > App.asyncCount<Int>"
            ])
    }

    @Test func anAsyncCachedFactoryResolvingFromAPerRequestContainerIsLogged() async throws {
        let app = App()
        app.request.manager.isPerRequest = true
        let lines = Collector<String>()
        app.manager.logger = { lines.append($0) }
        app.manager.logsCaptiveDependencies = true
        _ = try await app.asyncHoldsRequest()
        #expect(
            lines.values == [
                "FactoryCore: captive dependency - App.asyncHoldsRequest<Array<Int>> (cached) resolves "
                    + "PerRequest.user<Int> (cached, per-request) and keeps it beyond its scope; chain: "
                    + "App.asyncHoldsRequest<Array<Int>> > PerRequest.user<Int>"
            ])
    }

    @Test func anAsyncSingletonKeepingACachedInstanceThroughSynchronousFactoriesOfAWatchedContainerIsLogged()
        async throws
    {
        let app = App()
        let lines = Collector<String>()
        app.manager.logger = { lines.append($0) }
        app.manager.logsCaptiveDependencies = true
        // Another container's synchronous factories are looked at inside an async build
        // when that container is watched too (see `logsCaptiveDependencies`).
        app.library.manager.logsCaptiveDependencies = true
        #expect(try await app.asyncHoldsBook() == [12])
        #expect(
            lines.values == [
                "FactoryCore: captive dependency - App.asyncHoldsBook<Array<Int>> (singleton) resolves "
                    + "Library.pages<Int> (cached) and keeps it beyond its scope; chain: "
                    + "App.asyncHoldsBook<Array<Int>> > Library.book<Array<Int>> > Library.pages<Int>"
            ])
    }
}
