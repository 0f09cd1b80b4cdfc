import FactoryKit
import FactoryTestSupport
import Testing

// Factory's scopes: unique (the default), cached, shared, singleton, graph, custom
// `Cached()` scopes, a time to live on a caching scope, and `scopeOnParameters`.

@Suite struct UniqueScopeTests {
    @Test func uniqueIsTheDefault() {
        let container = Container()
        #expect(container.uniqueThing() !== container.uniqueThing())
        #expect(container.explicitlyUniqueThing() !== container.explicitlyUniqueThing())
    }

    @Test func aContainersDefaultScopeAppliesToFactoriesWithoutOne() {
        let container = Container()
        container.manager.defaultScope = .cached
        #expect(container.uniqueThing() === container.uniqueThing())
        #expect(container.explicitlyUniqueThing() !== container.explicitlyUniqueThing())
    }
}

@Suite struct CachedScopeTests {
    @Test func oneInstancePerContainerUntilReset() {
        let container = Container()
        let first = container.cachedThing()
        #expect(container.cachedThing() === first)
        #expect(Container().cachedThing() !== first)
        container.manager.reset(scope: .cached)
        #expect(container.cachedThing() !== first)
    }

    @Test func theClosureRunsOnceWhenManyThreadsResolveAtOnce() {
        let container = Container()
        let builds = Counter()
        let overlapped = Collector<Bool>()
        let factory = Factory<Thing>(container, key: "racedThing") {
            builds.increment()
            // The build ends only once the seven other threads wait for it.
            overlapped.append(container.buildWaitersReach(7))
            return Thing("raced")
        }.cached
        let seen = Collector<ObjectIdentifier>()
        runOnThreads(8) { _ in seen.append(ObjectIdentifier(factory())) }
        #expect(overlapped.values == [true], "the other seven threads never waited for the build")
        #expect(builds.value == 1)
        #expect(seen.values.count == 8)
        #expect(Set(seen.values).count == 1)
    }
}

@Suite struct SharedScopeTests {
    @Test func theInstanceLivesWhileSomeoneHoldsIt() {
        let container = Container()
        let builds = Counter()
        let factory = Factory<Thing>(container, key: "weaklyHeld") { Thing("\(builds.increment())") }.shared
        var held: Thing? = factory()
        #expect(factory() === held)
        weak let released = held
        held = nil
        #expect(released == nil)
        #expect(factory().label == "2")
        #expect(builds.value == 2)
    }

    @Test func theSharedModifierUsesTheSharedScope() {
        let container = Container()
        let held = container.sharedThing()
        #expect(container.sharedThing() === held)
    }
}

@Suite struct SingletonScopeTests {
    @Test func oneInstanceForEveryContainer() {
        withIsolatedSingletons { isolate in
            let first = isolate(Container()).singletonThing()
            #expect(isolate(Container()).singletonThing() === first)
        }
    }

    @Test func resettingTheSingletonScopeBuildsThemAgain() {
        withIsolatedSingletons { isolate in
            let container = isolate(Container())
            let first = container.singletonThing()
            Scope.singleton.reset()
            #expect(container.singletonThing() !== first)
        }
    }

    @Test(.container) func underTheContainerTraitEachTestHasItsOwnSingletons() {
        let singleton = Container.shared.singletonThing()
        #expect(Container.shared.singletonThing() === singleton)
        Scope.singleton.reset()
        #expect(Container.shared.singletonThing() !== singleton)
    }
}

@Suite struct GraphScopeTests {
    @Test func oneInstancePerResolutionCycle() {
        let container = Container()
        let pair = container.graphPair()
        #expect(pair.first === pair.second)
        let next = container.graphPair()
        #expect(next.first !== pair.first)
    }

    @Test func eachTopLevelResolutionIsACycleOfItsOwn() {
        let container = Container()
        #expect(container.graphThing() !== container.graphThing())
    }
}

@Suite struct CustomScopeTests {
    @Test func aCachedInstanceIsACacheOfItsOwn() {
        let container = Container()
        let session = container.sessionThing()
        #expect(container.sessionThing() === session)
        #expect(Container().sessionThing() !== session)
        container.manager.reset(scope: .cached)
        #expect(container.sessionThing() === session)
        container.manager.reset(scope: .session)
        #expect(container.sessionThing() !== session)
    }

    @Test func aScopeSetAtRunTimeApplies() {
        let container = Container()
        container.uniqueThing.scope(.session)
        let first = container.uniqueThing()
        #expect(container.uniqueThing() === first)
    }
}

// Time to live never asserts that something is still cached after a short wait:
// kept instances use an hour, expired ones a wait longer than their interval.
@Suite struct TimeToLiveTests {
    @Test func anInstanceIsKeptWithinItsTimeToLive() {
        let container = Container()
        let first = container.hourThing()
        #expect(container.hourThing() === first)
    }

    @Test func anInstanceOlderThanItsTimeToLiveIsBuiltAgain() {
        let container = Container()
        let first = container.briefThing()
        pause(milliseconds: 50)
        let second = container.briefThing()
        #expect(second !== first)
    }

    @Test func aTimeToLiveSetAtRunTimeApplies() {
        let container = Container()
        container.cachedThing.timeToLive(0.01)
        let first = container.cachedThing()
        pause(milliseconds: 50)
        #expect(container.cachedThing() !== first)
    }

    @Test func aTimeToLiveOnAUniqueFactoryChangesNothing() {
        let container = Container()
        #expect(container.uniqueBriefThing() !== container.uniqueBriefThing())
    }
}

@Suite struct ScopeOnParametersTests {
    @Test func oneCachedInstancePerParameter() {
        let container = Container()
        let ada = container.greetingPerName("Ada")
        let grace = container.greetingPerName("Grace")
        #expect(ada.name == "Ada")
        #expect(grace.name == "Grace")
        #expect(container.greetingPerName("Ada") === ada)
        #expect(container.greetingPerName("Grace") === grace)
    }

    @Test func theModifierMayComeBeforeTheScope() {
        // Factory's documentation writes `.scopeOnParameters.cached`.
        let container = Container()
        let ada = container.greetingPerNameFirst("Ada")
        #expect(container.greetingPerNameFirst("Ada") === ada)
        #expect(container.greetingPerNameFirst("Grace").name == "Grace")
    }

    @Test func resettingTheScopeDropsEveryParametersInstance() {
        let container = Container()
        let ada = container.greetingPerName("Ada")
        container.greetingPerName.reset(.scope)
        #expect(container.greetingPerName("Ada") !== ada)
    }
}
