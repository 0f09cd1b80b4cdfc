import FactoryCore
import FactoryTestSupport
import Testing

// Every way FactoryCore stops a program, with the message it prints. Each test runs
// its body in a child process (`#expect(processExitsWith:)`) and checks what that
// process wrote to standard error. Scope-related stops are in
// FactoryScopesTests/FatalMessageTests.swift; the cycle through three factories of
// one container is in CycleTests.swift, a lazily injected property read by its own
// factory in FactoryWrappersTests/LazyInjectedTests.swift.

final class FatalContainer: SharedContainer {
    static let shared = FatalContainer()
    let manager = ContainerManager()
}

final class FatalNode: Sendable {
    let next: FatalNode?
    init(_ next: FatalNode?) { self.next = next }
}

extension Container {
    var fatalCrossA: Factory<FatalNode> { self { FatalNode(FatalContainer.shared.fatalCrossB()) } }
    var fatalRoot: Factory<FatalNode> { self { FatalNode(self.fatalLoopA()) } }
    var fatalLoopA: Factory<FatalNode> { self { FatalNode(self.fatalLoopB()) } }
    var fatalLoopB: Factory<FatalNode> { self { FatalNode(self.fatalLoopA()) } }
    var fatalNeedsPromise: Factory<Int> { self { FatalContainer.shared.fatalPromise()?.count ?? 0 } }
    var fatalMainActorOnly: Factory<Int> {
        self { MainActor.assumeIsolated { 1 } }
    }
    var fatalBackgroundOnly: Factory<Int> {
        self { BackgroundActor.shared.assumeIsolated { _ in 1 } }
    }
}

extension FatalContainer {
    var fatalCrossB: Factory<FatalNode> { self { FatalNode(Container.shared.fatalCrossA()) } }
    var fatalPromise: Factory<[Int]?> { promised() }
}

final class AutoTypedContainer: SharedContainer, Resolving, AutoRegistering {
    static let shared = AutoTypedContainer()
    let manager = ContainerManager()
    func autoRegister() { register { Service(id: 21) } }
}

/// What the child process wrote to standard error.
private func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

@Suite struct FatalMessageTests {
    // MARK: Circular dependencies (every build configuration)

    #if EXIT_TESTS
    @Test func aCycleAcrossTwoContainersNamesBothContainers() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.shared.fatalCrossA()
        }
        #expect(
            standardError(result).contains(
                "FactoryCore: circular dependency chain - Container.fatalCrossA<FatalNode> > "
                    + "FatalContainer.fatalCrossB<FatalNode> > Container.fatalCrossA<FatalNode>"))
    }
    #endif

    #if EXIT_TESTS
    @Test func aCycleBelowTheRootNamesTheChainFromTheRoot() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().fatalRoot()
        }
        #expect(
            standardError(result).contains(
                "circular dependency chain - Container.fatalRoot<FatalNode> > Container.fatalLoopA<FatalNode> > "
                    + "Container.fatalLoopB<FatalNode> > Container.fatalLoopA<FatalNode>"))
    }
    #endif

    #if EXIT_TESTS
    @Test func aCycleOnAnotherThreadIsReportedThere() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container()
            _ = container.service()  // a clean resolution first: its chain must not leak into the next
            await Task.detached { _ = container.fatalRoot() }.value
        }
        #expect(standardError(result).contains("circular dependency chain - Container.fatalRoot<FatalNode> > "))
    }
    #endif

    /// Documented: turning the check off turns a cycle through unscoped factories
    /// into a stack overflow. The program still stops; it does not hang.
    #if EXIT_TESTS
    @Test func withCycleCheckingOffAnUnscopedCycleStillStopsTheProgram() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container()
            container.manager.circularDependencyTesting = false
            _ = container.fatalLoopA()
        }
    }
    #endif

    // MARK: Promises

    #if DEBUG
    #if EXIT_TESTS
    @Test func anUnregisteredPromisedParameterFactoryStopsADebugBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().promisedNumbered(3)
        }
        #expect(
            standardError(result).contains(
                "FactoryCore: Container.promisedNumbered<Optional<Service>> was promised but nothing is registered for it; "
                    + "register it before resolving, or set manager.promiseTriggersError = false to get nil"))
    }
    #endif

    #if EXIT_TESTS
    @Test func anUnregisteredPromiseResolvedInsideAnotherFactoryNamesThePromise() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().fatalNeedsPromise()
        }
        #expect(
            standardError(result).contains(
                "FactoryCore: FatalContainer.fatalPromise<Optional<Array<Int>>> was promised but nothing is registered"))
    }
    #endif
    #else
    @Test func anUnregisteredPromiseIsNilInReleaseBuildsEvenWithErrorsOn() {
        let container = Container()
        container.manager.promiseTriggersError = true
        #expect(container.promisedNumbered(3) == nil)
        #expect(container.promisedGreeting() == nil)
    }
    #endif

    // MARK: Type-based resolution

    #if EXIT_TESTS
    @Test func aTypeBasedFactoryResolvedAfterItsRegistrationWasResetNamesTheType() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = TypedContainer()
            container.register { Service(id: 1) }
            let factory = container.factory(Service.self)
            container.manager.reset()
            _ = factory?.resolve()
        }
        #expect(standardError(result).contains("FactoryCore: TypedContainer.resolving<Service> has no registration"))
    }
    #endif

    /// The counterpart of the stop above: `resolve(_:)` reads the registration once,
    /// so a reset on another thread makes it return the instance or `nil`, never stop.
    @Test func typeBasedResolutionRacingAResetNeverStopsTheProgram() {
        let container = TypedContainer()
        let wrong = Counter()
        runOnThreads(2) { index in
            for _ in 0..<20_000 {
                if index == 0 {
                    container.register { Service(id: 4) }
                    container.manager.reset()
                } else if let service = container.resolve(Service.self), service.id != 4 {
                    wrong.increment()
                }
            }
        }
        #expect(wrong.value == 0)
        #expect(container.resolve(Service.self) == nil)
        container.register { Service(id: 4) }
        #expect(container.resolve(Service.self)?.id == 4)
    }

    /// Type-based resolution is a resolution: it runs `autoRegister()` first.
    @Test func typeBasedResolutionAutoRegistersFirst() {
        #expect(AutoTypedContainer().resolve(Service.self)?.id == 21)
        #expect(AutoTypedContainer().factory(Service.self)?().id == 21)
    }

    // MARK: Actors

    /// A factory whose closure assumes the main actor, resolved off it, stops the
    /// program (`resolveOnMainActor()` is the way to resolve it). On Linux the
    /// runtime stops it without a message of its own.
    #if EXIT_TESTS
    @Test func aMainActorFactoryResolvedOffTheMainActorStopsTheProgram() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = Container().fatalMainActorOnly
            _ = await Task.detached { factory() }.value
        }
    }
    #endif

    #if EXIT_TESTS
    @Test func aGlobalActorFactoryResolvedOffItsActorStopsWithTheRuntimesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = Container().fatalBackgroundOnly
            _ = await Task.detached { factory() }.value
        }
        let message = standardError(result)
        #expect(message.contains("Incorrect actor executor assumption"))
        #expect(message.contains("BackgroundActor"))
    }
    #endif
}
