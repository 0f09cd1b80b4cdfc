import FactoryScopes
import FactoryTestSupport
import Testing

// The synchronous twin of AsyncBuildGenerationTests: a `register`, a reset or a
// `pop` is how a user recovers from a build that hangs (a connection that never
// answers). A resolution that starts after it returned neither waits for that
// build nor gets what it builds, and threads that were already waiting for the
// hung build stop waiting for it too.

/// Factories whose first build blocks its thread until `release` is raised.
final class HangingSyncContainer: ManagedContainer {
    let manager = ContainerManager()
    let builds = Counter()
    let started = Signal()
    let release = Signal()

    func connect() -> Pool {
        let serial = builds.increment()
        if serial == 1 {
            started.raise()
            _ = release.wait()
        }
        return Pool(serial: serial)
    }

    var cached: Factory<Pool> { self { self.connect() }.cached }
    var single: Factory<Pool> { self { self.connect() }.singleton }
    var perParameter: ParameterFactory<Int, Pool> { self { _ in self.connect() }.cached.scopeOnParameters }
}

/// A container whose start-up registration (made in `autoRegister()`) describes the
/// container type, so its singleton is the storage's shared one, which every
/// registration's singleton is written through to.
final class HangingStartUpContainer: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()

    func autoRegister() {
        single.register { Pool(serial: 1_000) }
    }

    var single: Factory<Pool> { self { Pool(serial: 0) }.singleton }
}

/// What the threads of one recovery saw.
private struct Recovery {
    /// What the hung build returned to the thread that ran it.
    var hung: [Int]
    /// What threads that were waiting for the hung build got.
    var waiters: [Int]
    /// What a resolution started after the recovery got, and one after everything finished.
    var after: Int
    var again: Int
}

@Suite struct BuildRecoveryTests {
    /// Starts the hanging first build of `resolve` and two threads, and once both
    /// wait for that build runs `recover`, resolves again on a watched thread,
    /// then releases the build. Each wait that ends unmet fails the test, named.
    private func recover(
        _ container: HangingSyncContainer, resolving resolve: @escaping @Sendable () -> Int, by recover: () -> Void
    ) -> Recovery? {
        let hung = Collector<Int>()
        let waiters = Collector<Int>()
        startThread { hung.append(resolve()) }
        guard container.started.wait(upTo: overlapBound) else {
            Issue.record("the first build never started")
            container.release.raise()
            return nil
        }
        for _ in 0..<2 { startThread { waiters.append(resolve()) } }
        guard poll(upTo: overlapBound, until: { container.manager.buildWaiters == 2 }) else {
            Issue.record("two threads never waited for the hung build")
            container.release.raise()
            return nil
        }
        recover()
        let after = Collector<Int>()
        // The hung build still runs: this must not wait for it.
        let finished = finishes(1) { _ in after.append(resolve()) }
        // Those that waited for the hung build were woken to decide again.
        let waitersDone = poll { waiters.values.count == 2 }
        container.release.raise()
        let hungDone = poll { hung.values.count == 1 }
        #expect(finished, "a resolution after the recovery waited for the hung build")
        #expect(waitersDone, "threads that waited for the hung build kept waiting after the recovery")
        #expect(hungDone, "the hung build never returned after its release")
        guard finished, waitersDone, hungDone else { return nil }
        return Recovery(hung: hung.values, waiters: waiters.values, after: after.values[0], again: resolve())
    }

    @Test func aRegisterIsSeenByTheNextResolution() throws {
        let container = HangingSyncContainer()
        let recovery = recover(
            container, resolving: { container.cached().serial },
            by: { container.cached.register { Pool(serial: 100) } })
        let seen = try #require(recovery)
        #expect(seen.hung == [1])
        #expect(seen.after == 100)
        #expect(seen.waiters == [100, 100])
        #expect(seen.again == 100)
    }

    @Test(arguments: CacheReset.allCases)
    func aResetStartsANewBuild(_ reset: CacheReset) throws {
        let container = HangingSyncContainer()
        reset.prepare(container.manager)
        let recovery = recover(
            container, resolving: { container.cached().serial },
            by: { reset.perform(on: container.manager) { container.cached.reset(.scope) } })
        let seen = try #require(recovery)
        #expect(seen.hung == [1])
        #expect(seen.after == 2)
        #expect(seen.waiters == [2, 2])
        #expect(seen.again == 2)
        #expect(container.builds.value == 2)
    }

    /// A reset of another scope outdates no build of this one: what it builds is
    /// cached, as for an asynchronous factory (AsyncBuildGenerationTests).
    @Test func aResetOfAnotherScopeKeepsTheBuildUnderWay() {
        let container = HangingSyncContainer()
        let hung = Collector<Int>()
        startThread { hung.append(container.cached().serial) }
        guard container.started.wait() else { return #expect(Bool(false), "the build never started") }
        container.manager.reset(scope: .shared)
        container.release.raise()
        #expect(poll(until: { hung.values.count == 1 }))
        #expect(hung.values == [1])
        #expect(container.cached().serial == 1)
        #expect(container.builds.value == 1)
    }

    /// The definition's singleton lives in the storage; a singleton a registration
    /// of one container keeps is outdated by a singleton reset through its era,
    /// not its generation. Both recover.
    @Test(arguments: ["Scope.singleton.reset()", "reset(options: .singletons)"], [false, true])
    func aSingletonResetStartsANewBuild(_ reset: String, registered: Bool) throws {
        try withIsolatedSingletons { isolate in
            let container = isolate(HangingSyncContainer())
            if registered { container.single.register { container.connect() } }
            let recovery = recover(
                container, resolving: { container.single().serial },
                by: {
                    if reset == "Scope.singleton.reset()" {
                        Scope.singleton.reset()
                    } else {
                        container.manager.reset(options: .singletons)
                    }
                })
            let seen = try #require(recovery)
            #expect(seen.hung == [1])
            #expect(seen.after == 2)
            #expect(seen.waiters == [2, 2])
            #expect(seen.again == 2)
        }
    }

    /// What a registration's singleton build started before a singleton reset
    /// makes is not written through to the storage's shared singleton either:
    /// containers whose start-up registration reads it build their own.
    @Test func aBuildOutdatedByASingletonResetIsNotWrittenThrough() {
        withIsolatedSingletons { isolate in
            let app = isolate(HangingStartUpContainer())
            let request = isolate(HangingStartUpContainer())
            let started = Signal()
            let release = Signal()
            request.single.register {
                started.raise()
                _ = release.wait()
                return Pool(serial: 1)
            }
            let hung = Collector<Int>()
            startThread { hung.append(request.single().serial) }
            #expect(started.wait())
            Scope.singleton.reset()
            release.raise()
            #expect(poll { hung.values == [1] })
            #expect(app.single().serial == 1_000)
        }
    }

    @Test func aPerParameterBuildIsRecoveredFromToo() throws {
        let container = HangingSyncContainer()
        let recovery = recover(
            container, resolving: { container.perParameter(7).serial }, by: { container.manager.reset() })
        let seen = try #require(recovery)
        #expect(seen.hung == [1])
        #expect(seen.after == 2)
        #expect(seen.waiters == [2, 2])
        #expect(seen.again == 2)
        // Another parameter has its own instance.
        #expect(container.perParameter(8).serial == 3)
    }
}
