import FactoryKit
import FactoryTestSupport
import Testing

// What Factory 3.3.0 to 3.4.1 added or fixed, as code written for those versions uses it:
// `graphScopeEnabled`, the nested scope names, and the behaviour of Factory's issues #377
// (delegation between containers), #384 (parameters whose hashes collide) and #385
// (concurrent first resolutions, cached delegation).

@Suite struct GraphScopeEnabledTests {
    @Test func itIsOffByDefaultAndSettable() {
        let container = Container()
        #expect(!container.manager.graphScopeEnabled)
        container.manager.graphScopeEnabled = true
        #expect(container.manager.graphScopeEnabled)
        container.manager.graphScopeEnabled = false
        #expect(!container.manager.graphScopeEnabled)
    }

    @Test func aGraphDefaultScopeTurnsItOn() {
        let container = Container()
        container.manager.defaultScope = .cached
        #expect(!container.manager.graphScopeEnabled)
        container.manager.defaultScope = .graph
        #expect(container.manager.graphScopeEnabled)
    }

    /// Unlike Factory 3.3, the graph scope needs no switch: off or on, one cycle shares one instance.
    @Test func theGraphScopeSharesWithinACycleEitherWay() {
        for enabled in [false, true] {
            let container = Container()
            container.manager.graphScopeEnabled = enabled
            let pair = container.graphPair()
            #expect(pair.first === pair.second)
            #expect(container.graphPair().first !== pair.first)
        }
    }
}

@Suite struct NestedScopeNameTests {
    @Test func theNestedNamesAreTheScopeClasses() {
        let scopes: [Scope] = [.cached, .shared, .singleton, .graph, .unique]
        #expect(scopes[0] is Scope.Cached)
        #expect(scopes[1] is Scope.Shared)
        #expect(scopes[2] is Scope.Singleton)
        #expect(scopes[3] is Scope.Graph)
        #expect(scopes[4] is Scope.Unique)
        #expect(!(scopes[0] is Scope.Singleton))
    }

    /// Custom scopes declared with the nested names, as Factory's docs declare them.
    @Test func customScopesMadeWithTheNestedNamesCache() {
        withIsolatedSingletons { isolate in
            let container = isolate(Container())
            let perSession = Factory<Thing>(container, key: "nestedCached") { Thing("session") }.scope(.nestedSession)
            #expect(perSession() === perSession())
            container.manager.reset(scope: .nestedSession)
            let session = perSession()
            #expect(perSession() === session)

            let processWide = Factory<Thing>(container, key: "nestedSingleton") { Thing("app") }.scope(.nestedApp)
            let elsewhere = Factory<Thing>(isolate(Container()), key: "nestedSingleton") { Thing("other") }
            #expect(processWide() === elsewhere.scope(.nestedApp)())

            let everyTime = Factory<Thing>(container, key: "nestedUnique") { Thing("new") }.scope(.nestedUnique)
            #expect(everyTime() !== everyTime())
        }
    }
}

extension Scope {
    fileprivate static let nestedSession = Scope.Cached()
    fileprivate static let nestedApp = Scope.Singleton()
    fileprivate static let nestedUnique = Scope.Unique()
}

/// Factory #377: a container's factory that resolves the same factory of another container instance (the
/// same key) delegates; it is not a circular dependency.
@Suite struct DelegationBetweenContainersTests {
    @Test func resolvingTheSameKeyFromAnotherContainerIsNoCycle() {
        let inner = Container()
        inner.cachedThing.register { Thing("inner") }
        let outer = Container()
        outer.cachedThing.register { inner.cachedThing() }
        #expect(outer.cachedThing().label == "inner")
        #expect(outer.cachedThing() === inner.cachedThing())
    }

    @Test func aChainThroughThreeContainersIsNoCycle() {
        let first = Container()
        let second = Container()
        let third = Container()
        third.uniqueThing.register { Thing("third") }
        second.uniqueThing.register { third.uniqueThing() }
        first.uniqueThing.register { second.uniqueThing() }
        #expect(first.uniqueThing().label == "third")
    }
}

/// Equal hashes, unequal values: `scopeOnParameters` must tell them apart by `==`.
private struct Colliding: Hashable, Sendable {
    let id: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// Factory #384: `scopeOnParameters` with parameters whose hashes collide.
@Suite struct CollidingParameterTests {
    @Test func unequalParametersWithEqualHashesGetTheirOwnInstances() {
        let container = Container()
        let builds = Counter()
        let factory = ParameterFactory<Colliding, Thing>(container, key: "colliding") {
            Thing("\($0.id) #\(builds.increment())")
        }.cached.scopeOnParameters
        let one = factory(Colliding(id: 1))
        let two = factory(Colliding(id: 2))
        #expect(one !== two)
        #expect(factory(Colliding(id: 1)) === one)
        #expect(factory(Colliding(id: 2)) === two)
        #expect(builds.value == 2)
    }

    @Test func registerDropsTheInstanceOfEveryCollidingParameter() {
        let container = Container()
        let factory = ParameterFactory<Colliding, Thing>(container, key: "collidingRegistered") {
            Thing("definition \($0.id)")
        }.cached.scopeOnParameters
        let one = factory(Colliding(id: 1))
        let two = factory(Colliding(id: 2))
        factory.register { Thing("mock \($0.id)") }
        #expect(factory(Colliding(id: 1)) !== one)
        #expect(factory(Colliding(id: 2)) !== two)
        #expect(factory(Colliding(id: 1)).label == "mock 1")
        #expect(factory(Colliding(id: 2)).label == "mock 2")
    }
}

/// Factory #385: many threads resolving a cached factory for the first time run its closure once, also when
/// the factory delegates to a cached factory of another container. Each build ends only once the other seven
/// threads wait for it, so the resolutions overlap for certain; the test checks that they did.
@Suite struct ConcurrentFirstResolutionTests {
    @Test func manyThreadsRunACachedClosureOnce() {
        let container = Container()
        let builds = Counter()
        let overlapped = Collector<Bool>()
        let factory = Factory<Thing>(container, key: "firstResolution") {
            overlapped.append(container.buildWaitersReach(7))
            return Thing("\(builds.increment())")
        }.cached
        let seen = Collector<ObjectIdentifier>()
        runOnThreads(8) { _ in seen.append(ObjectIdentifier(factory())) }
        #expect(overlapped.values == [true], "the other seven threads never waited for the build")
        #expect(builds.value == 1)
        #expect(Set(seen.values).count == 1)
    }

    /// Four threads resolve the outer container's factory and four the inner one's it delegates to: the seven
    /// that do not build wait, at one container's build or the other's.
    @Test func cachedDelegationAcrossContainersBuildsOnce() {
        let inner = Container()
        let outer = Container()
        let builds = Counter()
        let overlapped = Collector<Bool>()
        let innerFactory = Factory<Thing>(inner, key: "delegated") {
            overlapped.append(poll(upTo: overlapBound) { inner.manager.buildWaiters + outer.manager.buildWaiters == 7 })
            return Thing("\(builds.increment())")
        }.cached
        let outerFactory = Factory<Thing>(outer, key: "delegated") { innerFactory() }.cached
        let seen = Collector<ObjectIdentifier>()
        runOnThreads(8) { index in
            seen.append(ObjectIdentifier(index.isMultiple(of: 2) ? outerFactory() : innerFactory()))
        }
        #expect(overlapped.values == [true], "the other seven threads never waited for a build")
        #expect(builds.value == 1)
        #expect(Set(seen.values).count == 1)
        #expect(outerFactory() === innerFactory())
    }
}
