import FactoryKit
import FactoryTestSupport
import FactoryTesting
import Testing

// One test per bullet of README's "Coming from Factory": what this package does
// where Factory 3 behaves otherwise.

/// Factories declared once, in a protocol extension, for two container types.
protocol CommonFactories: ManagedContainer {}

extension CommonFactories {
    var commonSingleton: Factory<Thing> { self { Thing("common") }.singleton }
}

final class FirstCommonContainer: CommonFactories {
    let manager = ContainerManager()
}

final class SecondCommonContainer: CommonFactories {
    let manager = ContainerManager()
}

/// A container whose start-up registration replaces a singleton.
final class SingletonStartUpContainer: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()

    func autoRegister() {
        singletonThing.register { Thing("start-up") }
    }
}

extension SingletonStartUpContainer {
    var singletonThing: Factory<Thing> { self { Thing() }.singleton }
}

extension Container {
    var loopA: Factory<Thing> { self { Thing("a \(self.loopB().label)") } }
    var loopB: Factory<Thing> { self { Thing("b \(self.loopA().label)") } }
    var countdown: ParameterFactory<Int, Thing> {
        self { $0 == 0 ? Thing("0") : Thing("\($0) \(self.countdown($0 - 1).label)") }
    }
    @MainActor var mainActorThing: Factory<ScreenModel> { self { ScreenModel(weather: WeatherService()) } }
}

// Serialized: one test sets a runtime argument, which is process-wide.
@Suite(.serialized) struct DeviationTests {
    @Test func aSingletonIsKeptPerContainerType() {
        withIsolatedSingletons { isolate in
            let first = isolate(FirstCommonContainer())
            let second = isolate(SecondCommonContainer())
            let fromFirst = first.commonSingleton()
            #expect(isolate(FirstCommonContainer()).commonSingleton() === fromFirst)
            // Factory would hand both container types the same instance.
            #expect(second.commonSingleton() !== fromFirst)
        }
    }

    @Test func aSingletonMockedOnOneContainerInstanceStaysWithThatInstance() {
        withIsolatedSingletons { isolate in
            let app = isolate(Container())
            let request = isolate(Container())
            let appSingleton = app.singletonThing()
            request.singletonThing.register { Thing("request mock") }
            #expect(request.singletonThing().label == "request mock")
            // Factory would have replaced the one process-wide singleton.
            #expect(app.singletonThing() === appSingleton)
            #expect(isolate(Container()).singletonThing() === appSingleton)

            // Registrations made in autoRegister() describe the type, as in Factory.
            let first = isolate(SingletonStartUpContainer())
            let second = isolate(SingletonStartUpContainer())
            #expect(first.singletonThing().label == "start-up")
            #expect(second.singletonThing() === first.singletonThing())
        }
    }

    @Test func factoryResetOptionsIsAnOptionSetWithSingletons() {
        let combined: FactoryResetOptions = [.registration, .context]
        #expect(combined.contains(.context))
        #expect(!combined.contains(.scope))
        withIsolatedSingletons { isolate in
            let container = isolate(Container())
            container.weather.register { MockWeather("registered") }
            container.weather.onTest { MockWeather("test") }
            let cached = container.cachedThing()
            container.weather.reset([.registration, .context])
            #expect(container.weather().source == "live")
            #expect(container.cachedThing() === cached)

            let singleton = container.singletonThing()
            container.manager.reset(options: .all)
            #expect(container.singletonThing() === singleton)
            container.manager.reset(options: [.all, .singletons])
            #expect(container.singletonThing() !== singleton)
        }
    }

    #if EXIT_TESTS
    @Test func cycleDetectionCountsOnlyRealCyclesAndRunsInEveryBuild() async {
        // Recursion with a different parameter is not a cycle (Factory reports it in DEBUG).
        #expect(Container().countdown(3).label == "3 2 1 0")
        // A real cycle stops the program, naming the chain, whatever the build configuration.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().loopA()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "circular dependency chain - Container.loopA<Thing> > Container.loopB<Thing> > Container.loopA<Thing>"))
    }
    #endif

    @Test func launchArgumentContextsAreIgnoredInReleaseBuilds() {
        // The test binary's own path is one of its launch arguments.
        let launchArgument = CommandLine.arguments[0]
        let container = Container()
        container.weather.onArg(launchArgument) { MockWeather("launch") }
        #if DEBUG
        #expect(container.weather().source == "launch")
        #else
        // No test in this process sets FactoryContext.honorsLaunchOverridesInRelease
        // (the one that does runs in a child process), so it is off here.
        #expect(container.weather().source == "live")
        #endif
        // A runtime argument is the app's own code and counts in every build.
        let runtime = "-deviation-runtime-\(UInt64.random(in: 0...UInt64.max))"
        container.uniqueThing.onArg(runtime) { Thing("runtime") }
        FactoryContext.setArg(runtime, forKey: runtime)
        defer { FactoryContext.removeArg(forKey: runtime) }
        #expect(container.uniqueThing().label == "runtime")
    }

    @Test func containerSharedIsTaskLocal() async {
        let outside = Container.shared
        let container = Container()
        await Container.$shared.withValue(container) {
            #expect(Container.shared === container)
            async let fromChild = Container.shared === container
            #expect(await fromChild)
            let fromDetached = await Task.detached { Container.shared === container }.value
            #expect(!fromDetached)
        }
        #expect(Container.shared === outside)
    }

    #if EXIT_TESTS
    @Test func aMainActorFactoryResolvedOffTheMainActorStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = await MainActor.run { Container().mainActorThing }
            runOnAnotherThread { _ = factory() }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(offMainActorMessage("Container.mainActorThing<ScreenModel>")))
    }
    #endif

    @Test func traceWorksInEveryBuildConfigurationInFactorysFormat() {
        // No `#if DEBUG`: Factory traces in DEBUG builds only.
        let container = Container()
        let lines = Collector<String>()
        container.manager.logger = { lines.append($0) }
        container.manager.trace = true
        let thing = container.uniqueThing()
        #expect(lines.values == ["0: Container.uniqueThing<Thing> = F:\(UInt(bitPattern: ObjectIdentifier(thing))) Thing"])
    }

    @Test func modifiersTakeADefaultedCallerThatTellsTheDefinitionFromRunTime() {
        let runTime = Container()
        runTime.uniqueThing.scope(.cached)
        #expect(runTime.uniqueThing() === runTime.uniqueThing())
        // Named as the factory's own property, the same call belongs to the definition
        // and does not persist.
        let definition = Container()
        definition.uniqueThing.scope(.cached, caller: "uniqueThing")
        #expect(definition.uniqueThing() !== definition.uniqueThing())
    }

    @Test func aContextOverrideAppliedAtRunTimeWinsOverTheDefinitionsOwn() {
        // In Factory the definition's `onTest` is applied again each time the
        // property is read, so it replaces the one a test set ("The Factory Wins").
        let container = Container()
        container.everyTimeWeather.onTest { MockWeather("run-time test") }
        #expect(container.everyTimeWeather().source == "run-time test")
        #expect(container.everyTimeWeather().source == "run-time test")
    }

    @Test func traceAndLoggerBelongToTheContainerTheyAreSetOn() {
        // Factory 3 keeps them in globals shared by every container.
        let traced = Container()
        traced.manager.trace = true
        let other = Container()
        #expect(traced.manager.trace)
        #expect(!other.manager.trace)
    }

    @Test func onTestAppliesUnderATestRunnerInEveryBuildConfiguration() {
        // No `#if DEBUG`: Factory 3 applies `onTest` in DEBUG builds only.
        let container = Container()
        container.weather.onTest { MockWeather("test") }
        #expect(container.weather().source == "test")
    }
}
