import FactoryScopes
import FactoryTestSupport
import Testing

// A cached (or shared, or singleton) closure runs at most once per cache
// generation, and once `register` or a reset returns, no resolution starts the
// closure it replaced. Each test holds the first build inside its closure, lands
// the change once the seven other threads wait for that build (the container
// counts them), then lets it finish.

final class GenerationContainer: SharedContainer {
    static let shared = GenerationContainer()
    let manager = ContainerManager()
}

/// What one round's closures record.
private final class Round: Sendable {
    let firstBuildStarted = Signal()
    let releaseFirstBuild = Signal()
    let changed = Signal()
    let oldRuns = Counter()
    let newRuns = Counter()
    /// Old-closure runs that started after the change returned.
    let oldRunsAfterChange = Counter()
}

extension GenerationContainer {
    /// A gated factory of `scope`: its definition blocks the first build until released.
    fileprivate func gated(_ round: Round, _ scope: Scope) -> Factory<Thing> {
        Factory(self) {
            if round.changed.isRaised { round.oldRunsAfterChange.increment() }
            if round.oldRuns.increment() == 1 {
                round.firstBuildStarted.raise()
                round.releaseFirstBuild.wait()
            }
            return Thing(id: 1)
        }.scope(scope)
    }
}

@Suite struct BuildGenerationTests {
    static let scopes: [Scope] = [.cached, .shared, .singleton]

    @Test(arguments: scopes)
    func registerDuringABuildNeverStartsTheOldClosureAgain(scope: Scope) {
        for _ in 0..<10 {
            let overlapped = withIsolatedSingletons { isolate -> Bool in
                let container = isolate(GenerationContainer())
                let round = Round()
                let results = Collector<Thing>()
                for _ in 0..<8 { startThread { results.append(container.gated(round, scope)()) } }
                #expect(round.firstBuildStarted.wait(upTo: overlapBound), "the first build never started")
                let overlapped = poll(upTo: overlapBound) { container.manager.buildWaiters == 7 }
                #expect(overlapped, "seven threads never waited for the first build")
                container.gated(round, scope).register {
                    round.newRuns.increment()
                    return Thing(id: 2)
                }
                round.changed.raise()
                round.releaseFirstBuild.raise()
                #expect(poll { results.values.count == 8 }, "a deadlock")

                #expect(round.oldRunsAfterChange.value == 0, "the old closure started after register returned")
                #expect(round.oldRuns.value == 1)
                #expect(round.newRuns.value == 1, "waiters built again one after another")
                let values = results.values
                // The build that started before the change returns its instance. A
                // thread that read the options before `register` may still get that
                // same instance (for a singleton it stays the definition's singleton);
                // every other caller gets the one instance the new closure built. No
                // caller gets a third instance.
                let old = values.filter { $0.id == 1 }
                let fresh = values.filter { $0.id == 2 }
                #expect(old.count >= 1)
                if scope !== Scope.singleton {
                    // Container caches share one generation for definition and registration.
                    #expect(old.count == 1)
                }
                #expect(old.count + fresh.count == 8)
                #expect(Set(old.map(ObjectIdentifier.init)).count == 1)
                #expect(Set(fresh.map(ObjectIdentifier.init)).count <= 1)
                // The old instance was never cached.
                #expect(container.gated(round, scope)().id == 2)
                return overlapped
            }
            if !overlapped { break }
        }
    }

    @Test(arguments: scopes)
    func aResetDuringABuildStartsOneNewGeneration(scope: Scope) {
        for variant in 0..<3 {
            let overlapped = withIsolatedSingletons { isolate -> Bool in
                let container = isolate(GenerationContainer())
                let round = Round()
                let results = Collector<Thing>()
                for _ in 0..<8 { startThread { results.append(container.gated(round, scope)()) } }
                #expect(round.firstBuildStarted.wait(upTo: overlapBound), "the first build never started")
                let overlapped = poll(upTo: overlapBound) { container.manager.buildWaiters == 7 }
                #expect(overlapped, "seven threads never waited for the first build")
                switch variant {
                case 0: container.manager.reset(options: [.scope, .singletons])
                case 1: container.gated(round, scope).reset(.scope)
                default:
                    if scope === Scope.singleton {
                        Scope.singleton.reset()
                    } else {
                        container.manager.reset(scope: scope)
                    }
                }
                round.releaseFirstBuild.raise()
                #expect(poll { results.values.count == 8 }, "a deadlock")
                // One build per generation: the one under way, and one after the reset.
                #expect(round.oldRuns.value == 2, "variant \(variant): the closure ran \(round.oldRuns.value) times")
                let values = results.values.map(ObjectIdentifier.init)
                #expect(Set(values).count == 2, "variant \(variant)")
                return overlapped
            }
            if !overlapped { break }
        }
    }
}
