// pointfreeco/swift-dependencies 1.17.1, as its docs use it: a DependencyKey
// per dependency, a computed property on DependencyValues, `@Dependency` to
// read it and `withDependencies` to override it.
//
// Its model differs from a container's: a dependency is a value whose
// `liveValue` is built once and cached in the current DependencyValues, so
// "singleton" and "cached" are that cache. A fresh instance per resolution
// (unique) is a dependency that is a factory closure, the library's own
// idiom for it; there is no weak ("shared") or per-resolution ("graph") scope.
import BenchSupport
import Benchmark
import Dependencies

private enum MakeSvcKey: DependencyKey {
    static let liveValue: @Sendable () -> Svc = { Svc() }
}
private enum SingleKey: DependencyKey {
    static var liveValue: Svc { Svc() }
}
private enum CachedKey: DependencyKey {
    static var liveValue: Svc { Svc() }
}
private enum MakeCKey: DependencyKey {
    static let liveValue: @Sendable () -> C = { C() }
}
private enum MakeBKey: DependencyKey {
    static let liveValue: @Sendable () -> B = {
        @Dependency(\.makeC) var makeC
        return B(c: makeC())
    }
}
private enum MakeAKey: DependencyKey {
    static let liveValue: @Sendable () -> A = {
        @Dependency(\.makeB) var makeB
        return A(b: makeB())
    }
}
private enum MakePSvcKey: DependencyKey {
    static let liveValue: @Sendable (Int) -> PSvc = { PSvc(value: $0) }
}

extension DependencyValues {
    var makeSvc: @Sendable () -> Svc {
        get { self[MakeSvcKey.self] }
        set { self[MakeSvcKey.self] = newValue }
    }
    var single: Svc {
        get { self[SingleKey.self] }
        set { self[SingleKey.self] = newValue }
    }
    var cachedSvc: Svc {
        get { self[CachedKey.self] }
        set { self[CachedKey.self] = newValue }
    }
    var makeC: @Sendable () -> C {
        get { self[MakeCKey.self] }
        set { self[MakeCKey.self] = newValue }
    }
    var makeB: @Sendable () -> B {
        get { self[MakeBKey.self] }
        set { self[MakeBKey.self] = newValue }
    }
    var makeA: @Sendable () -> A {
        get { self[MakeAKey.self] }
        set { self[MakeAKey.self] = newValue }
    }
    var makePSvc: @Sendable (Int) -> PSvc {
        get { self[MakePSvcKey.self] }
        set { self[MakePSvcKey.self] = newValue }
    }
}

/// A long-lived model that reads its dependencies, the usual way to use them.
final class Model: @unchecked Sendable {
    @Dependency(\.makeSvc) var makeSvc
    @Dependency(\.single) var single
    @Dependency(\.cachedSvc) var cachedSvc
    @Dependency(\.makeA) var makeA
    @Dependency(\.makePSvc) var makePSvc
}

/// Scenario 8: `@Dependency` resolves on access, so creating the object and
/// reading all three properties is what gets it its three services.
final class DependenciesHolder {
    @Dependency(\.makeSvc) var a
    @Dependency(\.single) var b
    @Dependency(\.cachedSvc) var c
}

let model = Model()

let benchmarks: @Sendable () -> Void = {
    configureSuite()

    Benchmark(Scenario.unique) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(model.makeSvc())
        }
    }
    Benchmark(Scenario.singleton) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(model.single)
        }
    }
    Benchmark(Scenario.cached) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(model.cachedSvc)
        }
    }
    Benchmark(Scenario.chain) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(model.makeA())
        }
    }
    Benchmark(Scenario.parameter) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(model.makePSvc(42))
        }
    }
    Benchmark(Scenario.registerResolve) { benchmark in
        for _ in benchmark.scaledIterations {
            withDependencies {
                $0.makeSvc = { MockSvc() }
            } operation: {
                @Dependency(\.makeSvc) var makeSvc
                blackHole(makeSvc())
            }
        }
    }
    Benchmark(Scenario.injected3) { benchmark in
        for _ in benchmark.scaledIterations {
            let holder = DependenciesHolder()
            blackHole(holder.a())
            blackHole(holder.b)
            blackHole(holder.c)
        }
    }
    Benchmark(Scenario.singleton1Thread, configuration: threadedConfiguration) { _ in
        runOnThreads(1) {
            for _ in 0..<threadedOperations {
                blackHole(model.single)
            }
        }
    }
    Benchmark(Scenario.singleton2Threads, configuration: threadedConfiguration) { _ in
        runOnThreads(2) {
            for _ in 0..<(threadedOperations / 2) {
                blackHole(model.single)
            }
        }
    }
}
