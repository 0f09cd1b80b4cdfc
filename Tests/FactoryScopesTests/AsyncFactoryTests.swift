import FactoryScopes
import FactoryTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

struct ConnectionFailed: Error, Equatable {}

final class Pool: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// Async factories whose closures suspend, count their runs, and can be told to fail.
final class AsyncContainer: ManagedContainer {
    let manager = ContainerManager()
    let builds = Counter()
    let failures = Counter()
    /// How many of the next builds throw.
    let failNext = Counter()
    let released = Signal()
    /// Raised when a build of `gated` starts.
    let entered = Signal()
    /// What the contended factories' builds saw: 999 other resolutions waiting for them.
    let overlaps = Overlaps()

    func connect() async throws -> Pool {
        let serial = builds.increment()
        try? await Task.sleep(nanoseconds: 20_000_000)
        if failures.value < failNext.value {
            failures.increment()
            throw ConnectionFailed()
        }
        return Pool(serial: serial)
    }

    /// Counts its run, then stays suspended until 999 other resolutions wait for it,
    /// and records whether they did (within the watchdog's bound: see ``Overlaps``).
    func connectOnceAllJoin() async -> Pool {
        let serial = builds.increment()
        let joined = await (try? waitFor("999 tasks to join the build") { self.manager.buildWaiters == 999 }) != nil
        overlaps.record("999 tasks suspended on the build", joined)
        return Pool(serial: serial)
    }

    var unique: AsyncFactory<Pool> { self { try await self.connect() } }
    var cached: AsyncFactory<Pool> { self { try await self.connect() }.cached }
    var single: AsyncFactory<Pool> { self { try await self.connect() }.singleton }
    var expiring: AsyncFactory<Pool> { self { try await self.connect() }.cached.timeToLive(0.05) }
    /// An interval no test outlives, so that a hit never depends on the machine's speed.
    var hourLong: AsyncFactory<Pool> { self { try await self.connect() }.cached.timeToLive(3600) }
    /// Raises `entered`, then waits (suspended) until `released` is raised, polling;
    /// then throws if its task was cancelled meanwhile, as a real connection would.
    var gated: AsyncFactory<Pool> {
        self {
            self.entered.raise()
            try await self.released.raised("the test to release the gated build")
            try Task.checkCancellation()
            return try await self.connect()
        }.cached
    }
    var contendedCached: AsyncFactory<Pool> { self { await self.connectOnceAllJoin() }.cached }
    var contendedSingle: AsyncFactory<Pool> { self { await self.connectOnceAllJoin() }.singleton }
    var name: Factory<String> { self { "primary" } }
    var label: AsyncFactory<String> {
        self {
            let pool = try await self.cached()
            return "\(self.name()) #\(pool.serial)"
        }
    }
    var fibonacci: AsyncParameterFactory<Int, Int> {
        self { n in
            self.builds.increment()
            if n < 2 { return n }
            return try await self.fibonacci(n - 1) + self.fibonacci(n - 2)
        }.cached.scopeOnParameters
    }
    var cycleA: AsyncFactory<Int> { self { try await self.cycleB() + 1 } }
    var cycleB: AsyncFactory<Int> { self { try await self.cycleA() + 1 }.cached }
}

@Suite struct AsyncFactoryTests {
    @Test func aUniqueFactoryBuildsOnEveryResolution() async throws {
        let container = AsyncContainer()
        let first = try await container.unique()
        let second = try await container.unique.resolve()
        #expect(first !== second)
        #expect(container.builds.value == 2)
    }

    @Test func anAsyncClosureResolvesSynchronousAndAsynchronousFactories() async throws {
        let container = AsyncContainer()
        #expect(try await container.label() == "primary #1")
        #expect(try await container.label() == "primary #1")
    }

    /// A thousand tasks resolve at once; the build ends only once the other 999 are
    /// suspended on it. More waiting tasks than the cooperative pool has threads: if
    /// waiting blocked a thread, the build itself could never run.
    @Test(arguments: ["cached", "singleton"])
    func thousandTasksShareOneBuildAndNoneBlocksAThread(scope: String) async throws {
        let container = AsyncContainer()
        // Its own singleton storage, so the count is this test's alone.
        container.manager.useGlobalStorage(GlobalStorage())
        let factory = scope == "cached" ? container.contendedCached : container.contendedSingle
        let serials = try await withAsyncWatchdog("1,000 tasks did not get their instance") {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1_000 { group.addTask { try await factory().serial } }
                var serials: [Int] = []
                for try await serial in group { serials.append(serial) }
                return serials
            }
        }
        container.overlaps.expect(1)
        try #require(serials.count == 1_000)
        #expect(Set(serials).count == 1)
        #expect(container.builds.value == 1)
        #expect(try await factory().serial == serials[0])
    }

    @Test func aFailedBuildFailsEveryWaiterAndCachesNothing() async throws {
        let container = AsyncContainer()
        container.failNext.increment()
        // Whatever happens, the gated build is let go when the test ends.
        defer { container.released.raise() }
        let starter = Task { try await container.gated() }
        try await container.entered.raised("the gated build to start")
        let waiters = (0..<49).map { _ in Task { try await container.gated() } }
        // The build fails once all 49 wait for it, however the tasks were scheduled.
        try await waitFor("49 tasks to join the gated build") { container.manager.buildWaiters == 49 }
        container.released.raise()
        let failed = try await withAsyncWatchdog("a waiter of the failed build kept waiting") {
            var failed = 0
            for task in [starter] + waiters {
                if case .failure = await task.result { failed += 1 }
            }
            return failed
        }
        #expect(failed == 50, "every waiter of the failed build got its error")
        #expect(container.builds.value == 1)
        let pool = try await container.gated()
        #expect(pool.serial == 2, "the next resolution built again")
        #expect(try await container.gated() === pool)
    }

    @Test func cancellingAWaiterCancelsOnlyItsWait() async throws {
        let container = AsyncContainer()
        defer { container.released.raise() }
        let waiting = Task { try await container.gated() }
        // The build is under way until `released`: the next task can only wait for it.
        try await container.entered.raised("the gated build to start")
        let cancelled = Task { try await container.gated() }
        // Cancelled once it waits for the build, counted there.
        try await waitFor("the second task to join the gated build") {
            container.manager.buildWaiters == 1
        }
        cancelled.cancel()
        try await withAsyncWatchdog("the cancelled waiter kept waiting") {
            await #expect(throws: CancellationError.self) { try await cancelled.value }
        }
        container.released.raise()
        let pool = try await withAsyncWatchdog("the waiter never got the build's instance") { try await waiting.value }
        #expect(container.builds.value == 1)
        #expect(try await container.gated() === pool)
    }

    @Test func cancellingTheTaskThatStartedTheBuildDoesNotCancelTheBuild() async throws {
        let container = AsyncContainer()
        let starter = Task { try await container.gated() }
        try await container.entered.raised("the gated build to start")
        starter.cancel()
        try await withAsyncWatchdog("the cancelled starter kept waiting") {
            await #expect(throws: CancellationError.self) { try await starter.value }
        }
        container.released.raise()
        let pool = try await withAsyncWatchdog("the build never ended") { try await container.gated() }
        #expect(container.builds.value == 1)
        #expect(pool.serial == 1)
    }

    @Test func registerResetPushAndPop() async throws {
        let container = AsyncContainer()
        let original = try await container.cached()
        container.cached.register { Pool(serial: 100) }
        #expect(try await container.cached().serial == 100)
        container.manager.push()
        container.cached.register { Pool(serial: 200) }
        #expect(try await container.cached().serial == 200)
        container.manager.pop()
        #expect(try await container.cached().serial == 100)
        container.cached.reset()
        let rebuilt = try await container.cached()
        #expect(rebuilt !== original)
        #expect(rebuilt.serial == 2)
        container.manager.reset(options: .scope)
        #expect(try await container.cached() !== rebuilt)
    }

    @Test func aScopeSetAtRunTimePersists() async throws {
        let container = AsyncContainer()
        container.unique.scope(.cached)
        let first = try await container.unique()
        #expect(try await container.unique() === first)
    }

    @Test func decoratorsSeeEveryResolution() async throws {
        let container = AsyncContainer()
        let seen = Counter()
        container.cached.decorator { _ in seen.increment() }
        _ = try await container.cached()
        _ = try await container.cached()
        #expect(seen.value == 2)
    }

    @Test func aTimeToLiveKeepsTheInstanceWithinTheInterval() async throws {
        let container = AsyncContainer()
        let first = try await container.hourLong()
        #expect(try await container.hourLong() === first)
    }

    @Test func aTimeToLiveRebuildsAfterTheInterval() async throws {
        let container = AsyncContainer()
        let first = try await container.expiring()
        try await Task.sleep(nanoseconds: 80_000_000)
        #expect(try await container.expiring() !== first)
    }

    @Test func recursionWithAnotherParameterIsNotACycle() async throws {
        let container = AsyncContainer()
        #expect(try await container.fibonacci(30) == 832_040)
        #expect(container.builds.value == 31)
    }

    #if EXIT_TESTS
    @Test func aCycleThroughAwaitStopsTheProgramNamingTheChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await AsyncContainer().cycleA()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "circular dependency chain - AsyncContainer.cycleA<Int> > AsyncContainer.cycleB<Int> > "
                    + "AsyncContainer.cycleA<Int>"))
    }
    #endif
}

/// An async build whose closure resolves another async factory that another task is
/// building: the build waits for that one, as a task resolving it would.
final class JoiningContainer: ManagedContainer {
    let manager = ContainerManager()
    let innerBuilds = Counter()
    let innerStarted = Signal()
    let release = Signal()

    var inner: AsyncFactory<Pool> {
        self {
            let serial = self.innerBuilds.increment()
            self.innerStarted.raise()
            try await self.release.raised("the test to release inner's build")
            return Pool(serial: serial)
        }.cached
    }
    var outer: AsyncFactory<[Pool]> { self { [try await self.inner()] }.cached }
}

@Suite struct AsyncBuildJoiningTests {
    /// `outer`'s build joins the build of `inner` another task started, waits for
    /// it (counted at the build), and gets its instance: no cycle, one build of `inner`.
    @Test func aBuildResolvingAnotherTasksBuildWaitsForIt() async throws {
        let container = JoiningContainer()
        defer { container.release.raise() }
        let innerTask = Task { try await container.inner() }
        try await container.innerStarted.raised("inner's build to start")
        let outerTask = Task { try await container.outer() }
        try await waitFor("outer's build to join inner's") { container.manager.buildWaiters == 1 }
        container.release.raise()
        let (inner, outer) = try await withAsyncWatchdog("a build waited for another task's build forever") {
            (try await innerTask.value, try await outerTask.value)
        }
        #expect(outer.count == 1)
        #expect(outer.first === inner)
        #expect(container.innerBuilds.value == 1)
        #expect(container.manager.buildWaiters == 0)
        // Both cached: the next resolutions are hits.
        #expect(try await container.outer().first === inner)
    }
}
