// The hand-written baseline: each scenario with no container at all — direct
// construction, and a `static let` read for anything shared.
import BenchSupport
import Synchronization

/// Process-wide instances: the hand-written singleton, cached and shared.
enum Globals {
    static let single = Svc()
    static let cached = Svc()
    static let shared = Svc()
}

/// The honest floor for handing out a shared instance: a reference published in
/// an atomic word, made at run time (so its reference count is a real one, unlike
/// a statically initialised `static let` object's), loaded lock-free and returned
/// strong. The caller's use costs exactly one retain and one release of a heap
/// object every reading thread shares.
final class Published: Sendable {
    private let word = Atomic<UInt>(0)

    init(_ instance: Svc) {
        word.store(UInt(bitPattern: Unmanaged.passRetained(instance).toOpaque()), ordering: .releasing)
    }

    deinit {
        Unmanaged<Svc>.fromOpaque(UnsafeRawPointer(bitPattern: word.load(ordering: .relaxed))!).release()
    }

    /// Not inlined, like a library's resolve: the reference it returns is the caller's own (+1).
    @inline(never)
    func read() -> Svc {
        Unmanaged<Svc>.fromOpaque(UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring))!).takeUnretainedValue()
    }
}

/// The hand-written override: a stored closure that is replaced.
final class Registry {
    var make: () -> Svc = { Svc() }
}

public enum BaselineScenarios {
    public static func make() -> [Scenario] {
        let registry = Registry()
        let published = Published(Svc())
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
            Scenario(ScenarioName.strongRead) { n in
                for _ in 0..<n { sink(published.read()) }
            },
            Scenario(ScenarioName.strongRead2Threads, threaded: true) { n in
                runOnThreads(2) {
                    for _ in 0..<(n / 2) { sink(published.read()) }
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
