// The hand-written baseline: what each scenario costs with no container at
// all — direct construction, and a `static let` read for anything shared.
import BenchSupport
import Benchmark

/// Process-wide instances, the hand-written equivalent of singleton/cached/shared.
enum Globals {
    static let single = Svc()
    static let cached = Svc()
    static let shared = Svc()
}

/// The hand-written equivalent of an override: a stored closure that is replaced.
final class Registry {
    var make: () -> Svc = { Svc() }
}

let registry = Registry()

let benchmarks: @Sendable () -> Void = {
    configureSuite()

    Benchmark(Scenario.unique) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Svc())
        }
    }
    Benchmark(Scenario.singleton) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Globals.single)
        }
    }
    Benchmark(Scenario.cached) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Globals.cached)
        }
    }
    Benchmark(Scenario.sharedHeld) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Globals.shared)
        }
    }
    Benchmark(Scenario.chain) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(A(b: B(c: C())))
        }
    }
    Benchmark(Scenario.graph) { benchmark in
        for _ in benchmark.scaledIterations {
            let dep = Dep()
            blackHole(Root(a: dep, b: dep))
        }
    }
    Benchmark(Scenario.parameter) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PSvc(value: 42))
        }
    }
    Benchmark(Scenario.registerResolve) { benchmark in
        for _ in benchmark.scaledIterations {
            registry.make = { MockSvc() }
            blackHole(registry.make())
        }
    }
    Benchmark(Scenario.injected3) { benchmark in
        for _ in benchmark.scaledIterations {
            let holder = PlainHolder(a: Svc(), b: Globals.single, c: Globals.cached)
            blackHole(holder.a)
            blackHole(holder.b)
            blackHole(holder.c)
        }
    }
    Benchmark(Scenario.singleton1Thread, configuration: threadedConfiguration) { _ in
        runOnThreads(1) {
            for _ in 0..<threadedOperations {
                blackHole(Globals.single)
            }
        }
    }
    Benchmark(Scenario.singleton2Threads, configuration: threadedConfiguration) { _ in
        runOnThreads(2) {
            for _ in 0..<(threadedOperations / 2) {
                blackHole(Globals.single)
            }
        }
    }
}
