// Swinject 2.10.0, as its README uses it: one `Container` per scenario keyed
// by type, resolved directly ("plain") or through `container.synchronize()`
// ("sync", Swinject's documented way to resolve from several threads).
import BenchSupport
import Benchmark
import Swinject

/// Scenario 8 the Swinject way: an initializer that resolves three services.
final class SwinjectHolder {
    let a: Svc
    let b: Svc
    let c: Svc
    init(_ r: Resolver) {
        a = r.resolve(Svc.self, name: "unique")!
        b = r.resolve(Svc.self, name: "single")!
        c = r.resolve(Svc.self, name: "cached")!
    }
}

/// Keeps the `.weak` instance of scenario 3b alive for the whole run.
nonisolated(unsafe) var heldShared: [Svc] = []

func view(of container: Container, synchronized: Bool) -> Resolver {
    synchronized ? container.synchronize() : container
}

func registerSuite(synchronized: Bool) {
    let suffix = synchronized ? " (sync)" : ""

    do {
        let container = Container()
        container.register(Svc.self) { _ in Svc() }.inObjectScope(.transient)
        let r = view(of: container, synchronized: synchronized)
        Benchmark(Scenario.unique + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(Svc.self)!)
            }
        }
    }
    do {
        // Swinject has no process-wide scope: `.container` is its singleton.
        let container = Container()
        container.register(Svc.self) { _ in Svc() }.inObjectScope(.container)
        let r = view(of: container, synchronized: synchronized)
        Benchmark(Scenario.singleton + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(Svc.self)!)
            }
        }
        Benchmark(Scenario.cached + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(Svc.self)!)
            }
        }
        if synchronized {
            Benchmark(Scenario.singleton1Thread + suffix, configuration: threadedConfiguration) { _ in
                runOnThreads(1) {
                    for _ in 0..<threadedOperations {
                        blackHole(r.resolve(Svc.self)!)
                    }
                }
            }
            Benchmark(Scenario.singleton2Threads + suffix, configuration: threadedConfiguration) { _ in
                runOnThreads(2) {
                    for _ in 0..<(threadedOperations / 2) {
                        blackHole(r.resolve(Svc.self)!)
                    }
                }
            }
        }
    }
    do {
        let container = Container()
        container.register(Svc.self) { _ in Svc() }.inObjectScope(.weak)
        let r = view(of: container, synchronized: synchronized)
        heldShared.append(r.resolve(Svc.self)!)
        Benchmark(Scenario.sharedHeld + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(Svc.self)!)
            }
        }
    }
    do {
        let container = Container()
        container.register(C.self) { _ in C() }.inObjectScope(.transient)
        container.register(B.self) { r in B(c: r.resolve(C.self)!) }.inObjectScope(.transient)
        container.register(A.self) { r in A(b: r.resolve(B.self)!) }.inObjectScope(.transient)
        let r = view(of: container, synchronized: synchronized)
        Benchmark(Scenario.chain + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(A.self)!)
            }
        }
    }
    do {
        // `.graph` is Swinject's default scope: one instance per resolve() call tree.
        let container = Container()
        container.register(Dep.self) { _ in Dep() }.inObjectScope(.graph)
        container.register(Root.self) { r in Root(a: r.resolve(Dep.self)!, b: r.resolve(Dep.self)!) }
            .inObjectScope(.transient)
        let r = view(of: container, synchronized: synchronized)
        let check = r.resolve(Root.self)!
        precondition(check.a === check.b, "graph scope must share Dep within one resolution")
        Benchmark(Scenario.graph + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(Root.self)!)
            }
        }
    }
    do {
        let container = Container()
        container.register(PSvc.self) { (_: Resolver, value: Int) in PSvc(value: value) }.inObjectScope(.transient)
        let r = view(of: container, synchronized: synchronized)
        Benchmark(Scenario.parameter + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(r.resolve(PSvc.self, argument: 42)!)
            }
        }
    }
    do {
        let container = Container()
        container.register(Svc.self) { _ in Svc() }.inObjectScope(.transient)
        let r = view(of: container, synchronized: synchronized)
        Benchmark(Scenario.registerResolve + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                container.register(Svc.self) { _ in MockSvc() }.inObjectScope(.transient)
                blackHole(r.resolve(Svc.self)!)
            }
        }
    }
    do {
        let container = Container()
        container.register(Svc.self, name: "unique") { _ in Svc() }.inObjectScope(.transient)
        container.register(Svc.self, name: "single") { _ in Svc() }.inObjectScope(.container)
        container.register(Svc.self, name: "cached") { _ in Svc() }.inObjectScope(.container)
        let r = view(of: container, synchronized: synchronized)
        Benchmark(Scenario.injected3 + suffix) { benchmark in
            for _ in benchmark.scaledIterations {
                let holder = SwinjectHolder(r)
                blackHole(holder.a)
                blackHole(holder.b)
                blackHole(holder.c)
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    configureSuite()
    registerSuite(synchronized: false)
    registerSuite(synchronized: true)
}
