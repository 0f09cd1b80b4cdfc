import FactoryScopes
import FactoryTestSupport
import Testing

@Suite struct CachedTests {
    @Test func cachedKeepsOneInstancePerContainer() {
        let container = ScopeContainer()
        #expect(container.cachedThing() === container.cachedThing())
        #expect(container.builds.value == 1)
        #expect(ScopeContainer().cachedThing() !== container.cachedThing())
    }

    @Test func resetOfTheCachedScopeBuildsAgain() {
        let container = ScopeContainer()
        let first = container.cachedThing()
        container.manager.reset(scope: .cached)
        #expect(container.cachedThing() !== first)
        let second = container.cachedThing()
        container.manager.reset(options: .scope)
        #expect(container.cachedThing() !== second)
    }

    @Test func factoryResetOfScopeDropsOnlyThatInstance() {
        let container = ScopeContainer()
        let thing = container.cachedThing()
        let session = container.sessionThing()
        container.cachedThing.reset(.scope)
        #expect(container.cachedThing() !== thing)
        #expect(container.sessionThing() === session)
    }

    @Test func registerDropsTheCachedInstance() {
        let container = ScopeContainer()
        let first = container.cachedThing()
        container.cachedThing.register { Thing(id: 9) }
        let registered = container.cachedThing()
        #expect(registered !== first)
        #expect(registered.id == 9)
        #expect(container.cachedThing() === registered)
    }

    @Test func customScopesResetIndependently() {
        let container = ScopeContainer()
        let session = container.sessionThing()
        let other = container.otherThing()
        let cached = container.cachedThing()
        container.manager.reset(scope: .session)
        #expect(container.sessionThing() !== session)
        #expect(container.otherThing() === other)
        #expect(container.cachedThing() === cached)
    }

    @Test func changingAFactorysScopeDropsItsInstance() {
        let container = ScopeContainer()
        let first = container.sessionThing()
        let rescoped = container.sessionThing.scope(.other)
        let second = rescoped()
        #expect(second !== first)
        #expect(rescoped() === second)
    }

    @Test func scopeChainedAfterRegisterPersists() {
        let container = ScopeContainer()
        _ = container.unique.register { Thing(id: 3) }.cached
        #expect(container.unique() === container.unique())
        container.unique.reset()
        #expect(container.unique() !== container.unique())
    }

    @Test func defaultScopeAppliesToFactoriesWithoutOne() {
        let container = ScopeContainer()
        container.manager.defaultScope = .cached
        #expect(container.unique() === container.unique())
        #expect(container.sharedThing() === container.sharedThing())
    }

    @Test func explicitUniqueOverridesTheDefaultScope() {
        let container = ScopeContainer()
        container.manager.defaultScope = .cached
        let unique = container.unique.unique
        #expect(unique() !== unique())
    }

    @Test func pushAndPopRestoreScopeCaches() {
        let container = ScopeContainer()
        let before = container.cachedThing()
        container.manager.push()
        container.manager.reset(options: .scope)
        let during = container.cachedThing()
        #expect(during !== before)
        container.manager.pop()
        #expect(container.cachedThing() === before)
    }

    @Test func decoratorFlagTellsNewFromCached() {
        let container = ScopeContainer()
        let flags = Collector<Bool>()
        let factory = container.cachedThing.decorator { _, isNew in flags.append(isNew) }
        _ = factory()
        _ = factory()
        #expect(flags.values == [true, false])
    }
}
