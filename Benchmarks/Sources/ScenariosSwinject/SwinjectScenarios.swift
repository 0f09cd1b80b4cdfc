// Swinject 2.10.0 as its README uses it: a `Container` per scenario, keyed by
// type, resolved directly ("plain") or through `container.synchronize()`
// ("sync", Swinject's documented way to resolve from several threads; the
// plain container is not thread-safe, so scenario 9 is sync only).
import BenchSupport
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

/// Keeps the `.weak` instances of scenario 3b alive for the whole run.
nonisolated(unsafe) var heldShared: [Svc] = []

public enum SwinjectScenarios {
    /// Every scenario twice: plain container, then " (sync)".
    public static func make() -> [Scenario] {
        make(synchronized: false) + make(synchronized: true).map { $0.variant("sync") }
    }

    static func make(synchronized: Bool) -> [Scenario] {
        func view(_ container: Container) -> Resolver {
            synchronized ? container.synchronize() : container
        }
        var scenarios: [Scenario] = []

        do {
            let container = Container()
            container.register(Svc.self) { _ in Svc() }.inObjectScope(.transient)
            let r = view(container)
            scenarios.append(Scenario(ScenarioName.unique) { n in
                for _ in 0..<n { sink(r.resolve(Svc.self)!) }
            })
        }
        do {
            // Swinject has no process-wide scope: `.container` is its singleton.
            let container = Container()
            container.register(Svc.self) { _ in Svc() }.inObjectScope(.container)
            let r = view(container)
            scenarios.append(Scenario(ScenarioName.singleton) { n in
                for _ in 0..<n { sink(r.resolve(Svc.self)!) }
            })
            scenarios.append(Scenario(ScenarioName.cached) { n in
                for _ in 0..<n { sink(r.resolve(Svc.self)!) }
            })
            if synchronized {
                let shared = UncheckedSendable(r)
                scenarios.append(Scenario(ScenarioName.singleton1Thread, threaded: true) { n in
                    runOnThreads(1) {
                        for _ in 0..<n { sink(shared.value.resolve(Svc.self)!) }
                    }
                })
                scenarios.append(Scenario(ScenarioName.singleton2Threads, threaded: true) { n in
                    runOnThreads(2) {
                        for _ in 0..<(n / 2) { sink(shared.value.resolve(Svc.self)!) }
                    }
                })
            }
        }
        do {
            let container = Container()
            container.register(Svc.self) { _ in Svc() }.inObjectScope(.weak)
            let r = view(container)
            heldShared.append(r.resolve(Svc.self)!)
            scenarios.append(Scenario(ScenarioName.sharedHeld) { n in
                for _ in 0..<n { sink(r.resolve(Svc.self)!) }
            })
        }
        do {
            let container = Container()
            container.register(C.self) { _ in C() }.inObjectScope(.transient)
            container.register(B.self) { r in B(c: r.resolve(C.self)!) }.inObjectScope(.transient)
            container.register(A.self) { r in A(b: r.resolve(B.self)!) }.inObjectScope(.transient)
            let r = view(container)
            scenarios.append(Scenario(ScenarioName.chain) { n in
                for _ in 0..<n { sink(r.resolve(A.self)!) }
            })
        }
        do {
            // `.graph` (Swinject's default): one instance per resolve() call tree.
            let container = Container()
            container.register(Dep.self) { _ in Dep() }.inObjectScope(.graph)
            container.register(Root.self) { r in Root(a: r.resolve(Dep.self)!, b: r.resolve(Dep.self)!) }
                .inObjectScope(.transient)
            let r = view(container)
            let check = r.resolve(Root.self)!
            precondition(check.a === check.b, "graph scope must share Dep within one resolution")
            scenarios.append(Scenario(ScenarioName.graph) { n in
                for _ in 0..<n { sink(r.resolve(Root.self)!) }
            })
        }
        do {
            let container = Container()
            container.register(PSvc.self) { (_: Resolver, value: Int) in PSvc(value: value) }
                .inObjectScope(.transient)
            let r = view(container)
            scenarios.append(Scenario(ScenarioName.parameter) { n in
                for _ in 0..<n { sink(r.resolve(PSvc.self, argument: 42)!) }
            })
        }
        do {
            // Registration goes to the container itself; a synchronized view
            // is a child container that sees it.
            let container = Container()
            container.register(Svc.self) { _ in Svc() }.inObjectScope(.transient)
            let r = view(container)
            scenarios.append(Scenario(ScenarioName.registerResolve) { n in
                for _ in 0..<n {
                    container.register(Svc.self) { _ in MockSvc() }.inObjectScope(.transient)
                    sink(r.resolve(Svc.self)!)
                }
            })
        }
        do {
            let container = Container()
            container.register(Svc.self, name: "unique") { _ in Svc() }.inObjectScope(.transient)
            container.register(Svc.self, name: "single") { _ in Svc() }.inObjectScope(.container)
            container.register(Svc.self, name: "cached") { _ in Svc() }.inObjectScope(.container)
            let r = view(container)
            scenarios.append(Scenario(ScenarioName.injected3) { n in
                for _ in 0..<n {
                    let holder = SwinjectHolder(r)
                    sink(holder.a)
                    sink(holder.b)
                    sink(holder.c)
                }
            })
        }
        return scenarios
    }
}
