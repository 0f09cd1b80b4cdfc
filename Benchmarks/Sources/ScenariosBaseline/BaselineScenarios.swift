// The hand-written baseline: each scenario with no container at all — direct
// construction, and a `static let` read for anything shared.
import BenchSupport

/// Process-wide instances: the hand-written singleton, cached and shared.
enum Globals {
    static let single = Svc()
    static let cached = Svc()
    static let shared = Svc()
}

/// The hand-written override: a stored closure that is replaced.
final class Registry {
    var make: () -> Svc = { Svc() }
}

public enum BaselineScenarios {
    public static func make() -> [Scenario] {
        let registry = Registry()
        return [
            Scenario(ScenarioName.unique) { n in
                for _ in 0..<n { sink(Svc()) }
            },
            Scenario(ScenarioName.singleton) { n in
                for _ in 0..<n { sink(Globals.single) }
            },
            Scenario(ScenarioName.cached) { n in
                for _ in 0..<n { sink(Globals.cached) }
            },
            Scenario(ScenarioName.sharedHeld) { n in
                for _ in 0..<n { sink(Globals.shared) }
            },
            Scenario(ScenarioName.chain) { n in
                for _ in 0..<n { sink(A(b: B(c: C()))) }
            },
            Scenario(ScenarioName.graph) { n in
                for _ in 0..<n {
                    let dep = Dep()
                    sink(Root(a: dep, b: dep))
                }
            },
            Scenario(ScenarioName.parameter) { n in
                for _ in 0..<n { sink(PSvc(value: 42)) }
            },
            Scenario(ScenarioName.registerResolve) { n in
                for _ in 0..<n {
                    registry.make = { MockSvc() }
                    sink(registry.make())
                }
            },
            Scenario(ScenarioName.injected3) { n in
                for _ in 0..<n {
                    let holder = PlainHolder(a: Svc(), b: Globals.single, c: Globals.cached)
                    sink(holder.a)
                    sink(holder.b)
                    sink(holder.c)
                }
            },
            Scenario(ScenarioName.singleton1Thread, threaded: true) { n in
                runOnThreads(1) {
                    for _ in 0..<n { sink(Globals.single) }
                }
            },
            Scenario(ScenarioName.singleton2Threads, threaded: true) { n in
                runOnThreads(2) {
                    for _ in 0..<(n / 2) { sink(Globals.single) }
                }
            },
        ]
    }
}
