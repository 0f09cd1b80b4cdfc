import FactoryWrappers

/// What every stress factory builds: an object with a process-wide serial
/// number, so instances can be told apart after they are gone.
final class Thing: Sendable {
    let serial: Int
    /// The registration (or definition, 0) whose closure built it.
    let tag: Int

    init(tag: Int = 0) {
        serial = serials.increment()
        self.tag = tag
    }
}

/// Two objects resolved inside one resolution cycle, each holding a graph-scoped leaf.
final class Pair: Sendable {
    let left: Holder
    let right: Holder
    init(left: Holder, right: Holder) {
        self.left = left
        self.right = right
    }
}

final class Holder: Sendable {
    let leaf: Thing
    init(_ leaf: Thing) { self.leaf = leaf }
}

let serials = Tally()

/// The container the exactly-once, lazy and graph scenarios resolve from.
final class StressContainer: SharedContainer {
    static let shared = StressContainer()
    let manager = ContainerManager()

}

/// Closure runs per factory, across container instances.
let singletonBuilds = Tally()
let cachedBuilds = Tally()
let sharedBuilds = Tally()
let lazyBuilds = Tally()
let graphCacheBuilds = Tally()
let parameterBuilds = Tally()
let timeToLiveBuilds = Tally()

extension StressContainer {
    var slowSingleton: Factory<Thing> {
        self { self.slowBuild(singletonBuilds) }.singleton
    }
    var slowCached: Factory<Thing> {
        self { self.slowBuild(cachedBuilds) }.cached
    }
    var slowShared: Factory<Thing> {
        self { self.slowBuild(sharedBuilds) }.shared
    }
    var slowPerParameter: ParameterFactory<Int, Thing> {
        self { _ in self.slowBuild(parameterBuilds) }.cached.scopeOnParameters
    }
    /// Long enough never to expire during a run.
    var slowTimeToLive: Factory<Thing> {
        self { self.slowBuild(timeToLiveBuilds) }.cached.timeToLive(600)
    }
    /// Unique: only the property wrapper can make it run once.
    var lazyTarget: Factory<Thing> {
        self { self.slowBuild(lazyBuilds) }
    }
    var leaf: Factory<Thing> {
        self { Thing() }.graph
    }
    var holder: Factory<Holder> {
        self {
            // Let other threads run in the middle of this cycle.
            yieldThread()
            return Holder(self.leaf())
        }
    }
    var pair: Factory<Pair> {
        self { Pair(left: self.holder(), right: self.holder()) }
    }
    /// Resolves a graph leaf, then a cached factory that may be built by another
    /// thread (this one waits for it), then the leaf again.
    var pairAcrossWait: Factory<Pair> {
        self {
            let left = self.holder()
            _ = self.cachedHolder()
            return Pair(left: left, right: self.holder())
        }
    }
    /// Cached, and resolves a graph leaf inside its own build.
    var cachedHolder: Factory<Holder> {
        self {
            graphCacheBuilds.increment()
            pause(microseconds: 500)
            return Holder(self.leaf())
        }.cached
    }

    private func slowBuild(_ builds: Tally) -> Thing {
        builds.increment()
        pause(microseconds: 2_000)
        return Thing()
    }
}

/// The container the registration scenarios mutate from many threads.
final class ChaosContainer: SharedContainer {
    static let shared = ChaosContainer()
    let manager = ContainerManager()
}

extension ChaosContainer {
    /// One factory per worker thread; `Factory(self, key:)` names them.
    static let workerKeys: [StaticString] = [
        "worker0", "worker1", "worker2", "worker3", "worker4", "worker5", "worker6", "worker7",
    ]

    func worker(_ index: Int) -> Factory<Thing> {
        Factory(self, key: Self.workerKeys[index]) { Thing() }
    }

    func cachedWorker(_ index: Int) -> Factory<Thing> {
        Factory(self, key: Self.cachedWorkerKeys[index]) { Thing() }.cached
    }

    static let cachedWorkerKeys: [StaticString] = [
        "cached0", "cached1", "cached2", "cached3", "cached4", "cached5", "cached6", "cached7",
    ]

    var common: Factory<Thing> { self { Thing() } }
    var commonCached: Factory<Thing> { self { Thing() }.cached }
    var commonSingleton: Factory<Thing> { self { Thing() }.singleton }
    var commonShared: Factory<Thing> { self { Thing() }.shared }
    var commonGraph: Factory<Pair> {
        self { Pair(left: Holder(self.commonLeaf()), right: Holder(self.commonLeaf())) }
    }
    var commonLeaf: Factory<Thing> { self { Thing() }.graph }
}

/// A container in type-based ("Resolver") mode.
final class TypedContainer: SharedContainer, Resolving {
    static let shared = TypedContainer()
    let manager = ContainerManager()
}

/// A container that registers at start-up.
final class AutoContainer: SharedContainer, AutoRegistering {
    static let shared = AutoContainer()
    let manager = ContainerManager()
    let autoRegistrations = Tally()

    var service: Factory<Thing> { self { Thing(tag: 0) } }

    func autoRegister() {
        autoRegistrations.increment()
        pause(microseconds: 2_000)
        service.register { Thing(tag: 1) }
    }
}
