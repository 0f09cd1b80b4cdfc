import FactoryScopes
import FactoryTestSupport
import Testing

// A `register`, a reset or a `pop` is how a user recovers from an asynchronous
// build that hangs (a connection that never answers): a resolution that starts
// after it returned neither joins that build nor gets what it builds.

/// Async factories whose first build hangs until `release` is raised.
final class HangingContainer: ManagedContainer {
    let manager = ContainerManager()
    let builds = Counter()
    let started = Signal()
    let release = Signal()

    func connect() async throws -> Pool {
        let serial = builds.increment()
        if serial == 1 {
            started.raise()
            try await release.raised("the test to release the hung build")
        }
        return Pool(serial: serial)
    }

    var cached: AsyncFactory<Pool> { self { try await self.connect() }.cached }
    var single: AsyncFactory<Pool> { self { try await self.connect() }.singleton }

    /// `n` builds `n - 1` first: a recursion into a cache that ignores parameters.
    var countdown: AsyncParameterFactory<Int, Int> {
        self { n in n == 0 ? 0 : try await self.countdown(n - 1) + 1 }.cached
    }
}

@Suite struct AsyncBuildGenerationTests {
    /// Starts the hanging first build of `factory`, runs `recover`, resolves again.
    /// Returns the first build's serial and the later resolutions' serials.
    private func recover(
        _ container: HangingContainer, _ factory: AsyncFactory<Pool>, _ recover: @escaping @Sendable () -> Void
    ) async throws -> (hung: Int, after: Int, again: Int) {
        try await withAsyncWatchdog("a resolution waited for a hung build") {
            let hung = Task { try await factory().serial }
            try await container.started.raised("the first build to start")
            recover()
            // The hung build still runs: this must neither wait for it nor get its value.
            let after = try await factory().serial
            container.release.raise()
            let hungSerial = try await hung.value
            // What the hung build made when it finished was not cached either.
            let again = try await factory().serial
            return (hungSerial, after, again)
        }
    }

    @Test func aRegisterIsSeenByTheNextResolution() async throws {
        let container = HangingContainer()
        let serials = try await recover(container, container.cached) {
            container.cached.register { Pool(serial: 100) }
        }
        #expect(serials.hung == 1)
        #expect(serials.after == 100)
        #expect(serials.again == 100)
    }

    @Test(arguments: CacheReset.allCases)
    func aResetStartsANewBuild(_ reset: CacheReset) async throws {
        let container = HangingContainer()
        reset.prepare(container.manager)
        let serials = try await recover(container, container.cached) {
            reset.perform(on: container.manager) { container.cached.reset(.scope) }
        }
        #expect(serials.hung == 1)
        #expect(serials.after == 2)
        #expect(serials.again == 2)
        #expect(container.builds.value == 2)
    }

    /// The task that started a build a reset interrupted gets its instance, and
    /// nothing else keeps it: once that task lets go of it, it is gone. The
    /// starter resumes inside the call that wakes it, on the build's thread (its
    /// executor runs each job as it is enqueued), so whatever the build's own task
    /// still holds after waking it, it holds when the starter checks.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anInterruptedBuildsInstanceIsReleasedBeforeTheStarterReturns() async throws {
        let container = HangingContainer()
        let starter = Task(executorPreference: InlineExecutor()) {
            var pool: Pool? = try await container.cached()
            weak let built = pool
            pool = nil
            return built == nil
        }
        try await container.started.raised("the first build to start")
        container.cached.reset(.scope)
        container.release.raise()
        let released = try await withAsyncWatchdog("the starter of the interrupted build never returned") {
            try await starter.value
        }
        #expect(released, "the interrupted build's instance outlived the call that returned it")
    }

    /// A reset of another scope outdates no build of this one: what it builds is
    /// cached, as for a synchronous factory (BuildRecoveryTests).
    @Test func aResetOfAnotherScopeKeepsTheBuildUnderWay() async throws {
        let container = HangingContainer()
        let serials = try await withAsyncWatchdog("the build never ended") {
            let hung = Task { try await container.cached().serial }
            try await container.started.raised("the first build to start")
            container.manager.reset(scope: .shared)
            container.release.raise()
            return (try await hung.value, try await container.cached().serial)
        }
        #expect(serials == (1, 1))
        #expect(container.builds.value == 1)
    }

    /// The definition's singleton lives in the storage; a registration's own is
    /// outdated by a singleton reset through its era. Both recover.
    @Test(arguments: ["Scope.singleton.reset()", "reset(options: .singletons)"], [false, true])
    func aSingletonResetStartsANewBuild(_ reset: String, registered: Bool) async throws {
        let storage = GlobalStorage()
        try await GlobalStorage.$testStorage.withValue(storage) {
            let container = HangingContainer()
            container.manager.useGlobalStorage(storage)
            if registered { container.single.register { try await container.connect() } }
            let serials = try await recover(container, container.single) {
                if reset == "Scope.singleton.reset()" {
                    Scope.singleton.reset()
                } else {
                    container.manager.reset(options: .singletons)
                }
            }
            #expect(serials.hung == 1)
            #expect(serials.after == 2)
            #expect(serials.again == 2)
        }
    }

    /// Starts the hanging first build of `factory` and `joiners` tasks, and
    /// returns once every one of them waits for that build. Each task returns a serial.
    private func startHungBuild(
        of factory: AsyncFactory<Pool>, in container: HangingContainer, joiners: Int
    ) async throws -> (starter: Task<Int, any Error>, joiners: [Task<Int, any Error>]) {
        let starter = Task { try await factory().serial }
        try await container.started.raised("the first build to start")
        let joined = (0..<joiners).map { _ in Task { try await factory().serial } }
        try await waitFor("\(joiners) tasks to join the hung build") { container.manager.buildWaiters == joiners }
        return (starter, joined)
    }

    /// Tasks that joined the hung build are sent to the build the next
    /// resolution starts, as threads waiting for a synchronous build are: none of
    /// them waits for the hung one. The task that started it gets its instance,
    /// as the thread running a synchronous build does.
    @Test(arguments: ["register", "reset()"])
    func tasksWaitingForAHungBuildMoveToTheNewOne(_ recovery: String) async throws {
        let container = HangingContainer()
        let factory = container.cached
        let (starter, others) = try await withAsyncWatchdog("a task kept waiting for the hung build") {
            let (starter, joiners) = try await startHungBuild(of: factory, in: container, joiners: 2)
            if recovery == "register" {
                factory.register { Pool(serial: 100) }
            } else {
                container.manager.reset()
            }
            var others = [try await factory().serial]
            // Both joiners end while the hung build still hangs.
            for joiner in joiners { others.append(try await joiner.value) }
            container.release.raise()
            return (try await starter.value, others)
        }
        let expected = recovery == "register" ? 100 : 2
        #expect(starter == 1)
        #expect(others == [expected, expected, expected])
    }

    /// Tasks that joined a build which a `register` cut short, with no resolution
    /// starting meanwhile, share one build of the new generation when it ends,
    /// as threads waiting for a synchronous build do; its starter gets its instance.
    @Test func tasksThatJoinedABuildCutShortShareOneNewBuild() async throws {
        let container = HangingContainer()
        let factory = container.cached
        let (starter, joined) = try await withAsyncWatchdog("a task kept waiting") {
            let (starter, joiners) = try await startHungBuild(of: factory, in: container, joiners: 3)
            factory.register { Pool(serial: container.builds.increment() + 100) }
            container.release.raise()
            var joined: [Int] = []
            for joiner in joiners { joined.append(try await joiner.value) }
            return (try await starter.value, joined)
        }
        #expect(starter == 1)
        #expect(Set(joined).count == 1)
        #expect(joined.allSatisfy { $0 > 100 })
        #expect(container.builds.value == 2, "the joiners built once between them")
    }

    @Test func aFactoryThatResolvesItselfWithAnotherParameterBuildsWithoutWaitingForItself() async throws {
        let container = HangingContainer()
        let value = try await withAsyncWatchdog("a resolution waited for a hung build") { try await container.countdown(5) }
        #expect(value == 5)
        // The outermost build is the one cached; a cache that ignores parameters returns it.
        #expect(try await container.countdown(1) == 5)
    }

    @Test func resolutionsRacingRegistersNeverCacheAnOlderClosure() async throws {
        let container = HangingContainer()
        container.release.raise()
        let factory = container.cached
        _ = try await factory()
        // Each round registers a new serial and then resolves: whatever ran
        // concurrently, what the cache serves after `register` returned is at
        // least that registration's.
        let finished = Signal()
        let stale = Counter()
        try await withAsyncWatchdog("a resolution waited for a hung build") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        while !finished.isRaised {
                            _ = try await factory()
                            await Task.yield()
                        }
                    }
                }
                group.addTask {
                    defer { finished.raise() }
                    for round in 1...3_000 {
                        factory.register { Pool(serial: 10_000 + round) }
                        if try await factory().serial < 10_000 + round { stale.increment() }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(stale.value == 0, "\(stale.value) of 3,000 resolutions after a register got an older closure's instance")
    }
}

/// Two cached async factories whose first builds, started at once by two tasks,
/// wait for each other.
final class CrossTaskContainer: ManagedContainer {
    let manager = ContainerManager()
    let leftStarted = Signal()
    let rightStarted = Signal()

    var left: AsyncFactory<Pool> {
        self {
            self.leftStarted.raise()
            try await self.rightStarted.raised("the right build to start")
            return Pool(serial: try await self.right().serial + 1)
        }.cached
    }
    var right: AsyncFactory<Pool> {
        self {
            self.rightStarted.raise()
            try await self.leftStarted.raised("the left build to start")
            return Pool(serial: try await self.left().serial + 1)
        }.cached
    }
}

@Suite struct AsyncCrossTaskCycleTests {
    #if EXIT_TESTS
    @Test func twoTasksWhoseBuildsWaitForEachOtherStopWithBothChains() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = CrossTaskContainer()
            startThread {
                if !Signal().wait(upTo: watchdogBound) { fatalError("watchdog: the two builds stayed suspended") }
            }
            async let left = container.left()
            async let right = container.right()
            _ = try? await (left, right)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("circular dependency across threads or tasks (each waits for a build of the other)"))
        #expect(output.contains("task: CrossTaskContainer.left<Pool> > CrossTaskContainer.right<Pool>"))
        #expect(output.contains("task: CrossTaskContainer.right<Pool> > CrossTaskContainer.left<Pool>"))
    }
    #endif
}

/// Runs each job on the thread that enqueues it, inside the enqueuing call: a task
/// that prefers it resumes inside the `resume()` that wakes it, before the code
/// that resumed it goes on. For tests only: an executor never does that for real.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class InlineExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
