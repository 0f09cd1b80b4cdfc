// pointfreeco/swift-dependencies 1.17.1 as its docs use it: a DependencyKey
// per dependency, a computed property on DependencyValues, `@Dependency` to
// read it and `withDependencies` to override it.
//
// Its model differs from a container's: a dependency is a value whose
// `liveValue` is built once and cached by DependencyValues, so "singleton"
// and "cached" are that cache. A fresh instance per resolution ("unique",
// chain, parameter) is a dependency that is a factory closure, the library's
// own idiom. It has no weak ("shared") and no per-resolution ("graph") scope,
// so those scenarios are not measured for it.
import BenchSupport
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

/// A long-lived model that reads its dependencies: each read resolves.
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

public enum DependenciesScenarios {
    public static func make() -> [Scenario] {
        let model = Model()
        return [
            Scenario(ScenarioName.unique) { n in
                for _ in 0..<n { sink(model.makeSvc()) }
            },
            Scenario(ScenarioName.singleton) { n in
                for _ in 0..<n { sink(model.single) }
            },
            Scenario(ScenarioName.cached) { n in
                for _ in 0..<n { sink(model.cachedSvc) }
            },
            Scenario(ScenarioName.chain) { n in
                for _ in 0..<n { sink(model.makeA()) }
            },
            Scenario(ScenarioName.parameter) { n in
                for _ in 0..<n { sink(model.makePSvc(42)) }
            },
            Scenario(ScenarioName.registerResolve) { n in
                for _ in 0..<n {
                    withDependencies {
                        $0.makeSvc = { MockSvc() }
                    } operation: {
                        @Dependency(\.makeSvc) var makeSvc
                        sink(makeSvc())
                    }
                }
            },
            Scenario(ScenarioName.injected3) { n in
                for _ in 0..<n {
                    let holder = DependenciesHolder()
                    sink(holder.a())
                    sink(holder.b)
                    sink(holder.c)
                }
            },
            Scenario(ScenarioName.singleton1Thread, threaded: true) { n in
                runOnThreads(1) {
                    for _ in 0..<n { sink(model.single) }
                }
            },
            Scenario(ScenarioName.singleton2Threads, threaded: true) { n in
                runOnThreads(2) {
                    for _ in 0..<(n / 2) { sink(model.single) }
                }
            },
        ]
    }
}
