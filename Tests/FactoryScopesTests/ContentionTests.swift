import FactoryScopes
import FactoryTestSupport
import Testing

final class Left: Sendable {
    let shared: Thing
    init(_ shared: Thing) { self.shared = shared }
}
final class Right: Sendable {
    let shared: Thing
    init(_ shared: Thing) { self.shared = shared }
}

final class DiamondContainer: SharedContainer {
    static let shared = DiamondContainer()
    let manager = ContainerManager()
    let builds = Counter()
    let overlaps = Overlaps()
    /// Its build ends once three resolutions wait: one at `left`, one at `right`, and
    /// the builder of whichever of them did not build `common`, inside its own closure.
    var common: Factory<Thing> {
        self {
            self.builds.increment()
            self.overlaps.wait("three resolutions wait, one inside the other scoped closure") {
                self.manager.buildWaiters == 3
            }
            return Thing()
        }.cached
    }
    var left: Factory<Left> { self { Left(self.common()) }.cached }
    var right: Factory<Right> { self { Right(self.common()) }.cached }
    var outer: Factory<Left> { self { Left(self.inner()) }.cached }
    var inner: Factory<Thing> { self { Thing(id: 1) }.cached }
}

@Suite struct ContentionTests {
    /// Eight threads resolve at once; the build ends only once the other seven wait for it.
    @Test func cachedBuildsOncePerGenerationUnderContention() {
        for round in 0..<10 {
            let container = ScopeContainer()
            let seen = Collector<ObjectIdentifier>()
            runOnThreads(8) { _ in seen.append(ObjectIdentifier(container.contendedCached())) }
            container.overlaps.expect(1)
            #expect(container.builds.value == 1, "round \(round)")
            #expect(seen.values.count == 8)
            #expect(Set(seen.values).count == 1)
            if container.overlaps.anyMissed { break }
        }
    }

    /// The first build signals that it started and waits until the reset on the
    /// other thread is done, so the reset lands inside the build whatever the
    /// machine's speed: the build's caller still gets its value, but it is not
    /// cached, and the next resolution builds again.
    @Test func aResetDuringABuildStartsANewGeneration() throws {
        let container = ScopeContainer()
        let started = Signal()
        let resetDone = Signal()
        // What the threads saw, asserted on the test's own task after they joined.
        let resetCame = Collector<Bool>()
        let buildStarted = Collector<Bool>()
        let gated = Factory<Thing>(container, key: "gated") {
            if container.builds.increment() == 1 {
                started.raise()
                resetCame.append(resetDone.wait())
            }
            return Thing()
        }.cached
        // Things, not their identifiers: a freed instance's address could be reused.
        let seen = Collector<Thing>()
        runOnThreads(2) { index in
            if index == 0 {
                seen.append(gated())
            } else {
                let didStart = started.wait()
                buildStarted.append(didStart)
                guard didStart else { return }
                container.manager.reset(options: .scope)
                resetDone.raise()
            }
        }
        #expect(buildStarted.values == [true], "the build never started")
        #expect(resetCame.values == [true], "the reset never came")
        let afterReset = gated()
        let interrupted = try #require(seen.values.first)
        #expect(seen.values.count == 1)
        #expect(interrupted !== afterReset, "the build the reset interrupted was cached")
        #expect(container.builds.value == 2)
        #expect(gated() === afterReset, "the new generation's instance is cached")
    }

    /// Two threads resolve `left` and two `right`: while `left`'s and `right`'s builders
    /// are both inside their closures, one of them waits for the other's build of
    /// `common` (and one more thread at each of `left` and `right`).
    @Test func differentScopedFactoriesSharingADependencyDoNotDeadlock() {
        for round in 0..<5 {
            let container = DiamondContainer()
            let commons = Collector<ObjectIdentifier>()
            runOnThreads(4) { index in
                if index % 2 == 0 {
                    commons.append(ObjectIdentifier(container.left().shared))
                } else {
                    commons.append(ObjectIdentifier(container.right().shared))
                }
            }
            container.overlaps.expect(1)
            #expect(container.builds.value == 1, "round \(round)")
            #expect(commons.values.count == 4)
            #expect(Set(commons.values).count == 1)
            if container.overlaps.anyMissed { break }
        }
    }

    @Test func aScopedClosureMayResolveOtherScopedFactories() {
        let container = DiamondContainer()
        let outer = container.outer()
        #expect(outer.shared === container.inner())
        #expect(container.outer() === outer)
    }
}

@Suite struct RegisterRaceTests {
    /// `register` clears the cached instance; a resolution that chose the old closure
    /// just before must not put the old closure's instance back afterwards.
    @Test func registerRacingResolutionsNeverLeavesAnOlderInstanceCached() {
        let container = ScopeContainer()
        let stale = Counter()
        runOnThreads(4) { index in
            for round in 1...3000 {
                if index == 0 {
                    container.cachedThing.register { Thing(id: round) }
                    if container.cachedThing().id != round { stale.increment() }
                } else {
                    _ = container.cachedThing()
                }
            }
        }
        #expect(stale.value == 0)
    }
}
