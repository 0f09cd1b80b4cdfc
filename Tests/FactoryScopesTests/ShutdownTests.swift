import FactoryScopes
import FactoryTestSupport
import Testing

// `manager.shutdown()`: what a container built is shut down once, latest built
// first, every closure even when one throws, bounded by a timeout; and nothing
// resolves from a container once its shutdown has started.

/// A service that records its own shutdown in a shared log.
final class Closable: Sendable {
    let name: String
    let log: Collector<String>
    let dependency: Closable?

    init(_ name: String, log: Collector<String>, dependency: Closable? = nil) {
        self.name = name
        self.log = log
        self.dependency = dependency
    }

    /// Fails when run in a cancelled task: a shutdown must run to the end
    /// whatever happens to the task that asked for it.
    func close() async throws {
        try Task.checkCancellation()
        log.append(name)
    }
}

struct ShutdownFailed: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) failed to close" }
}

/// Factories whose instances declare a shutdown, each writing to `log`.
final class ShutdownContainer: ManagedContainer {
    let manager = ContainerManager()
    let log = Collector<String>()
    let builds = Counter()
    let started = Signal()
    let release = Signal()
    /// Raised when `hanging`'s shutdown closure starts.
    let hangingEntered = Signal()

    init(singletons: GlobalStorage = GlobalStorage()) {
        manager.useGlobalStorage(singletons)
    }

    var pool: Factory<Closable> {
        self { Closable("pool", log: self.log) }.cached.onShutdown { try await $0.close() }
    }
    var repository: Factory<Closable> {
        self { Closable("repository", log: self.log, dependency: self.pool()) }.cached.onShutdown { try await $0.close() }
    }
    var client: Factory<Closable> {
        self { Closable("client", log: self.log) }.singleton.onShutdown { try await $0.close() }
    }
    var failing: Factory<Closable> {
        self { Closable("failing", log: self.log) }.cached.onShutdown { throw ShutdownFailed(name: $0.name) }
    }
    var hanging: Factory<Closable> {
        self { Closable("hanging", log: self.log) }.cached.onShutdown { _ in
            // Does not finish before the test raises `release`: only the timeout ends the wait for it.
            self.hangingEntered.raise()
            try await self.release.raised("the test to release the hanging shutdown")
        }
    }
    var perTenant: ParameterFactory<String, Closable> {
        self { Closable("tenant \($0)", log: self.log) }.cached.scopeOnParameters.onShutdown { try await $0.close() }
    }
    var numbered: Factory<Closable> {
        self { Closable("numbered \(self.builds.increment())", log: self.log) }.cached.onShutdown { try await $0.close() }
    }
    var expiring: Factory<Closable> {
        self { Closable("expiring \(self.builds.increment())", log: self.log) }
            .cached.timeToLive(0.000_000_001).onShutdown { try await $0.close() }
    }
    var sharedOne: Factory<Closable> {
        self { Closable("shared", log: self.log) }.shared.onShutdown { try await $0.close() }
    }
    var uniqueOne: Factory<Closable> {
        self { Closable("unique", log: self.log) }.onShutdown { try await $0.close() }
    }
    var plain: Factory<Closable> {
        self { Closable("plain", log: self.log) }.cached
    }
    var slowStore: AsyncFactory<Closable> {
        self {
            self.started.raise()
            try await self.release.raised("the test to release the slow build")
            return Closable("slow store", log: self.log)
        }.cached.onShutdown { try await $0.close() }
    }
    var asyncStore: AsyncFactory<Closable> {
        self { Closable("async store", log: self.log) }.cached.onShutdown { try await $0.close() }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ShutdownTests {
    @Test func instancesAreShutDownInReverseOrderOfConstruction() async throws {
        let container = ShutdownContainer()
        _ = container.repository()  // builds the pool first, inside the repository's build
        try await container.manager.shutdown()
        #expect(container.log.values == ["repository", "pool"])
    }

    @Test func anInstanceBuiltLaterIsShutDownFirstWhateverTheFactoryOrder() async throws {
        let container = ShutdownContainer()
        _ = container.pool()
        _ = container.perTenant("a")
        _ = container.repository()  // the pool is cached already: the repository is built last
        _ = container.perTenant("b")
        try await container.manager.shutdown()
        #expect(container.log.values == ["tenant b", "repository", "tenant a", "pool"])
    }

    @Test func everyInstanceIsShutDownOnceAndErrorsAreReportedTogether() async throws {
        let container = ShutdownContainer()
        _ = container.pool()
        _ = container.failing()
        _ = container.repository()
        let error = await #expect(throws: ShutdownError.self) { try await container.manager.shutdown() }
        #expect(error?.failures.map(\.factory.name.description) == ["failing"])
        #expect(error?.failures.first?.timedOut == false)
        #expect("\(error!)".contains("ShutdownContainer.failing<Closable>: failing failed to close"))
        // The pool and repository were shut down although `failing` threw between them.
        #expect(container.log.values == ["repository", "pool"])
        // A second call finds nothing left to shut down.
        try await container.manager.shutdown()
        #expect(container.log.values == ["repository", "pool"])
    }

    /// A closure that hangs is named once its timeout passes, and the closures after it still run: the pool,
    /// built first, closes although the closure before it never returns. The timeout is long enough that the
    /// quick closures never reach it on a loaded machine; only the hanging one waits it out.
    @Test func aHangingClosureTimesOutAndTheOthersStillRun() async throws {
        let container = ShutdownContainer()
        defer { container.release.raise() }
        _ = container.pool()
        _ = container.hanging()
        _ = container.repository()
        let error = await #expect(throws: ShutdownError.self) {
            try await container.manager.shutdown(timeout: .seconds(2))
        }
        #expect(container.hangingEntered.isRaised)
        #expect(error?.failures.map(\.factory.name.description) == ["hanging"])
        #expect(error?.failures.allSatisfy(\.timedOut) == true)
        #expect(container.log.values == ["repository", "pool"])
    }

    /// A request container shut down with a long timeout is released as soon as its closures finished, with
    /// everything it held: nothing waits for the timeout (a server makes one per request).
    @Test func aShutDownContainerAndItsInstancesAreReleasedBeforeTheTimeout() async throws {
        weak var container: ShutdownContainer?
        weak var pool: Closable?
        do {
            let made = ShutdownContainer()
            pool = made.pool()
            try await made.manager.shutdown(timeout: .seconds(600))
            container = made
        }
        #expect(poll { container == nil && pool == nil }, "still held after the shutdown returned")
    }

    @Test func aBuildRunningWhenShutdownStartsIsHandedOverButNeitherCachedNorShutDown() async throws {
        let container = ShutdownContainer()
        try await withAsyncWatchdog {
            let build = Task { try await container.slowStore() }
            try await container.started.raised("the slow build to start")
            try await container.manager.shutdown()
            container.release.raise()
            #expect(try await build.value.name == "slow store")
            try await container.manager.shutdown()
            #expect(container.log.values.isEmpty)
            await #expect(throws: ContainerShutDownError.self) { try await container.slowStore() }
        }
    }

    /// Only the task that started the build gets what it built: a task that joined
    /// it fails as any resolution after the shutdown does, rather than receiving
    /// an instance nobody will shut down.
    @Test func aTaskThatJoinedABuildRunningWhenShutdownStartsThrows() async throws {
        let container = ShutdownContainer()
        try await withAsyncWatchdog {
            let build = Task { try await container.slowStore() }
            try await container.started.raised("the slow build to start")
            let joined = Task { try await container.slowStore() }
            try await waitFor("a second task to join the slow build") { container.manager.buildWaiters == 1 }
            try await container.manager.shutdown()
            container.release.raise()
            #expect(try await build.value.name == "slow store")
            await #expect(throws: ContainerShutDownError.self) { try await joined.value }
        }
    }

    @Test func singletonsAreShutDownOnlyWhenAskedAndOnceAcrossContainers() async throws {
        let storage = GlobalStorage()
        let first = ShutdownContainer(singletons: storage)
        let second = ShutdownContainer(singletons: storage)
        let client = first.client()
        #expect(second.client() === client)
        _ = first.pool()
        try await first.manager.shutdown()
        #expect(first.log.values == ["pool"])
        try await second.manager.shutdown(includingSingletons: true)
        try await first.manager.shutdown(includingSingletons: true)
        #expect(first.log.values == ["pool", "client"])
    }

    @Test func cancellingTheCallerDoesNotStopTheShutdown() async throws {
        let container = ShutdownContainer()
        _ = container.repository()
        let started = Signal()
        let shutdown = Task {
            // A blocking wait: a suspending one would end at once, as the task is cancelled.
            guard started.wait() else { throw WatchdogTimeout("the test to cancel the task", seconds: watchdogBound) }
            try await container.manager.shutdown()
        }
        shutdown.cancel()
        started.raise()
        try await shutdown.value
        #expect(container.log.values == ["repository", "pool"])
    }

    #if EXIT_TESTS
    @Test func aSynchronousFactoryResolvedAfterShutdownStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = ShutdownContainer()
            _ = container.pool()
            try? await container.manager.shutdown()
            _ = container.pool()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ShutdownContainer.pool<Closable> was resolved after its container was shut down"))
    }
    #endif

    @Test func anAsynchronousFactoryResolvedAfterShutdownThrowsNamingIt() async throws {
        let container = ShutdownContainer()
        let store = try await container.asyncStore()
        try await container.manager.shutdown()
        #expect(container.log.values == ["async store"])
        #expect(container.manager.isShutDown)
        let error = await #expect(throws: ContainerShutDownError.self) { try await container.asyncStore() }
        #expect(error?.key == container.asyncStore.registration.key)
        #expect("\(error!)".contains("ShutdownContainer.asyncStore<Closable> was resolved after its container was shut down"))
        _ = store
    }

    @Test func instancesDroppedBeforeShutdownAreNotShutDown() async throws {
        let container = ShutdownContainer()
        _ = container.numbered()  // "numbered 1", dropped by the reset
        container.manager.reset(options: .scope)
        _ = container.numbered()  // "numbered 2", dropped by the register
        container.numbered.register { Closable("registered", log: container.log) }
        _ = container.numbered()  // "registered": the definition's onShutdown still applies
        _ = container.expiring()  // "expiring 3", dropped when it expires
        _ = container.expiring()  // "expiring 4"
        try await container.manager.shutdown()
        #expect(container.log.values == ["expiring 4", "registered"])
    }

    @Test func onlyCachedInstancesAreShutDown() async throws {
        let container = ShutdownContainer()
        let shared = container.sharedOne()
        _ = container.uniqueOne()
        _ = container.plain()
        try await container.manager.shutdown()
        #expect(container.log.values.isEmpty)
        _ = shared
    }

    @Test func onShutdownAppliedAtRunTimePersists() async throws {
        let container = ShutdownContainer()
        container.plain.onShutdown { try await $0.close() }
        _ = container.plain()
        try await container.manager.shutdown()
        #expect(container.log.values == ["plain"])
    }
}
