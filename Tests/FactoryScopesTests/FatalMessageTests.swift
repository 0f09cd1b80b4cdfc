import FactoryScopes
import FactoryTestSupport
import Testing

// Every way FactoryScopes stops a program, with the message it prints, each in a
// child process (`#expect(processExitsWith:)`). FactoryCore's own stops are in
// FactoryCoreTests/FatalMessageTests.swift.

final class FatalScopeContainer: SharedContainer {
    static let shared = FatalScopeContainer()
    let manager = ContainerManager()
}

final class Link: Sendable {
    let next: Link?
    init(_ next: Link?) { self.next = next }
}

extension FatalScopeContainer {
    var cachedHead: Factory<Link> { self { Link(self.uniqueMiddle()) }.cached }
    var uniqueMiddle: Factory<Link> { self { Link(self.cachedHead()) } }
    var singletonHead: Factory<Link> { self { Link(self.sharedMiddle()) }.singleton }
    var sharedMiddle: Factory<Link> { self { Link(self.singletonHead()) }.shared }
    var perParameterHead: ParameterFactory<Int, Link> { self { Link(self.perParameterMiddle($0)) }.cached.scopeOnParameters }
    var perParameterMiddle: ParameterFactory<Int, Link> { self { Link(self.perParameterHead($0)) } }
    var graphHead: Factory<Link> { self { Link(self.graphMiddle()) }.graph }
    var graphMiddle: Factory<Link> { self { Link(self.graphHead()) } }
    var resettable: Factory<Link> { self { Link(nil) }.cached }
}

/// What the child process wrote to standard error.
private func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

@Suite struct ScopeFatalMessageTests {
    // MARK: Circular dependencies through scoped factories

    #if EXIT_TESTS
    @Test func aCycleThroughACachedFactoryNamesTheChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FatalScopeContainer().cachedHead()
        }
        #expect(
            standardError(result).contains(
                "FactoryCore: circular dependency chain - FatalScopeContainer.cachedHead<Link> > "
                    + "FatalScopeContainer.uniqueMiddle<Link> > FatalScopeContainer.cachedHead<Link>\n"))
    }
    #endif

    #if EXIT_TESTS
    @Test func aCycleThroughSingletonAndSharedFactoriesNamesTheChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FatalScopeContainer().singletonHead()
        }
        #expect(
            standardError(result).contains(
                "circular dependency chain - FatalScopeContainer.singletonHead<Link> > "
                    + "FatalScopeContainer.sharedMiddle<Link> > FatalScopeContainer.singletonHead<Link>\n"))
    }
    #endif

    #if EXIT_TESTS
    @Test func aCycleThroughAGraphFactoryNamesTheChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FatalScopeContainer().graphHead()
        }
        #expect(
            standardError(result).contains(
                "circular dependency chain - FatalScopeContainer.graphHead<Link> > "
                    + "FatalScopeContainer.graphMiddle<Link> > FatalScopeContainer.graphHead<Link>\n"))
    }
    #endif

    // With cycle checking off, a cached build that comes back to itself finds its
    // own build latch: still reported with the chain, instead of waiting forever.

    #if EXIT_TESTS
    @Test func withCycleCheckingOffACachedCycleIsCaughtByItsBuildLatch() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = FatalScopeContainer()
            container.manager.circularDependencyTesting = false
            _ = container.cachedHead()
        }
        #expect(
            standardError(result).contains(
                "FactoryCore: circular dependency chain - FatalScopeContainer.cachedHead<Link> > "
                    + "FatalScopeContainer.uniqueMiddle<Link> > FatalScopeContainer.cachedHead<Link>\n"))
    }
    #endif

    #if EXIT_TESTS
    @Test func withCycleCheckingOffASingletonCycleIsCaughtByItsBuildLatch() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = FatalScopeContainer()
            container.manager.circularDependencyTesting = false
            _ = container.singletonHead()
        }
        #expect(
            standardError(result).contains(
                "circular dependency chain - FatalScopeContainer.singletonHead<Link> > "
                    + "FatalScopeContainer.sharedMiddle<Link> > FatalScopeContainer.singletonHead<Link>\n"))
    }
    #endif

    #if EXIT_TESTS
    @Test func withCycleCheckingOffAPerParameterCycleIsCaughtByItsBuildLatch() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = FatalScopeContainer()
            container.manager.circularDependencyTesting = false
            _ = container.perParameterHead(4)
        }
        #expect(
            standardError(result).contains(
                "circular dependency chain - FatalScopeContainer.perParameterHead<Link> > "
                    + "FatalScopeContainer.perParameterMiddle<Link> > FatalScopeContainer.perParameterHead<Link>\n"))
    }
    #endif

    // MARK: Time to live

    #if EXIT_TESTS
    @Test func aNegativeTimeToLiveStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FatalScopeContainer().resettable.timeToLive(-1)
        }
        expectTimeToLiveMessage(result, "-1.0")
    }
    #endif

    #if EXIT_TESTS
    @Test func aTimeToLiveThatIsNotANumberStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FatalScopeContainer().resettable.timeToLive(.nan)
        }
        expectTimeToLiveMessage(result, "nan")
    }
    #endif

    #if EXIT_TESTS
    @Test func anInfiniteTimeToLiveStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FatalScopeContainer().resettable.timeToLive(.infinity)
        }
        expectTimeToLiveMessage(result, "inf")
    }
    #endif

    private func expectTimeToLiveMessage(_ result: ExitTest.Result?, _ interval: String) {
        #expect(
            standardError(result).contains(
                "FactoryScopes: timeToLive for FatalScopeContainer.resettable<Link> needs a finite, non-negative number of seconds, got \(interval)"
            ))
    }

    // MARK: Resetting a scope that caches nothing

    @Test func resettingTheUniqueOrGraphScopeDoesNothing() {
        let container = FatalScopeContainer()
        let cached = container.resettable()
        container.manager.reset(scope: .unique)
        container.manager.reset(scope: .graph)
        #expect(container.resettable() === cached)
    }
}
