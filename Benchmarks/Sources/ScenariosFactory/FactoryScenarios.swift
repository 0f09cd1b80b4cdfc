// This library, used the way its README shows: computed factories in a
// `Container` extension, resolved with `container.name()`.
import BenchSupport
import FactoryProfiling
import FactoryWrappers

extension Container {
    var unique: Factory<Svc> { self { Svc() } }
    var single: Factory<Svc> { self { Svc() }.singleton }
    var cachedSvc: Factory<Svc> { self { Svc() }.cached }
    var sharedSvc: Factory<Svc> { self { Svc() }.shared }
    var chainC: Factory<C> { self { C() } }
    var chainB: Factory<B> { self { B(c: self.chainC()) } }
    var chainA: Factory<A> { self { A(b: self.chainB()) } }
    var graphDep: Factory<Dep> { self { Dep() }.graph }
    var root: Factory<Root> { self { Root(a: self.graphDep(), b: self.graphDep()) } }
    var param: ParameterFactory<Int, PSvc> { self { PSvc(value: $0) } }
    var paramCached: ParameterFactory<Int, PSvc> { self { PSvc(value: $0) }.cached.scopeOnParameters }
    var overridden: Factory<Svc> { self { Svc() } }
    var asyncSvc: AsyncFactory<Svc> { self { Svc() }.cached }
}

/// Scenario 8: three injected properties, resolved from `Container.shared`
/// when the object is created.
final class Holder {
    @Injected(\.unique) var a
    @Injected(\.single) var b
    @Injected(\.cachedSvc) var c
}

/// Keeps the `.shared` (weak) instance of scenario 3b alive for the run.
nonisolated(unsafe) var heldShared: [Svc] = []

public enum FactoryScenarios {
    public static func make() -> [Scenario] {
        // A fresh container per group so that no scenario sees another's
        // registrations or caches; the defaults are what a user gets.
        let c = Container()
        heldShared.append(c.sharedSvc())

        let graph = Container()
        let check = graph.root()
        precondition(check.a === check.b, "graph scope must share Dep within one resolution")

        let off = Container()
        off.manager.circularDependencyTesting = false
        off.manager.trace = false
        let cycle = Container()
        cycle.manager.circularDependencyTesting = true
        cycle.manager.trace = false
        let trace = Container()
        trace.manager.circularDependencyTesting = false
        trace.manager.trace = true
        trace.manager.logger = { _ in }
        let profiled = Container()

        return [
            Scenario(ScenarioName.unique) { n in
                for _ in 0..<n { sink(c.unique()) }
            },
            Scenario(ScenarioName.singleton) { n in
                for _ in 0..<n { sink(c.single()) }
            },
            Scenario(ScenarioName.cached) { n in
                for _ in 0..<n { sink(c.cachedSvc()) }
            },
            Scenario(ScenarioName.sharedHeld) { n in
                for _ in 0..<n { sink(c.sharedSvc()) }
            },
            Scenario(ScenarioName.chain) { n in
                for _ in 0..<n { sink(c.chainA()) }
            },
            Scenario(ScenarioName.graph) { n in
                for _ in 0..<n { sink(graph.root()) }
            },
            Scenario(ScenarioName.parameter) { n in
                for _ in 0..<n { sink(c.param(42)) }
            },
            Scenario(ScenarioName.parameterCached) { n in
                for _ in 0..<n { sink(c.paramCached(42)) }
            },
            Scenario(ScenarioName.registerResolve) { n in
                for _ in 0..<n {
                    c.overridden.register { MockSvc() }
                    sink(c.overridden())
                }
            },
            Scenario(ScenarioName.injected3) { n in
                for _ in 0..<n {
                    let holder = Holder()
                    sink(holder.a)
                    sink(holder.b)
                    sink(holder.c)
                }
            },
            Scenario(ScenarioName.singleton1Thread, threaded: true) { n in
                runOnThreads(1) {
                    for _ in 0..<n { sink(c.single()) }
                }
            },
            Scenario(ScenarioName.singleton2Threads, threaded: true) { n in
                runOnThreads(2) {
                    for _ in 0..<(n / 2) { sink(c.single()) }
                }
            },
            Scenario(ScenarioName.uniqueChecksOff) { n in
                for _ in 0..<n { sink(off.unique()) }
            },
            Scenario(ScenarioName.uniqueCycleOn) { n in
                for _ in 0..<n { sink(cycle.unique()) }
            },
            Scenario(ScenarioName.uniqueTraceOn) { n in
                for _ in 0..<n { sink(trace.unique()) }
            },
            // Every resolution is a build, recorded; the profile is made at the end, within the measure.
            Scenario(ScenarioName.uniqueProfiled) { n in
                let recording = FactoryProfile.start(containers: [profiled])
                for _ in 0..<n { sink(profiled.unique()) }
                sink(recording.stop().builds.count)
            },
            Scenario(ScenarioName.asyncCached) { n in
                blockOn {
                    for _ in 0..<n { sink(try? await c.asyncSvc()) }
                }
            },
            Scenario(ScenarioName.asyncFirstBuild100) { n in
                let fresh = Container()
                blockOn {
                    for _ in 0..<n {
                        fresh.asyncSvc.reset(.scope)
                        await withTaskGroup(of: Void.self) { group in
                            for _ in 0..<100 { group.addTask { sink(try? await fresh.asyncSvc()) } }
                        }
                    }
                }
            },
        ]
    }
}
