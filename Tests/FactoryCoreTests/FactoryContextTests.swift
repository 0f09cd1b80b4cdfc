import FactoryTestSupport
import Testing

@testable import FactoryCore

@Suite struct FactoryContextTests {
    @Test func swiftTestIsDetectedAsATestRun() {
        #expect(FactoryContext.current.isTest)
        #expect(FactoryContext.detect().isTest)
    }

    @Test func debugFlagFollowsTheBuildConfiguration() {
        #if DEBUG
        #expect(FactoryContext.current.isDebug)
        #else
        #expect(!FactoryContext.current.isDebug)
        #endif
    }

    @Test func onTestOverridesUnderTheTestRunner() {
        let container = Container()
        container.greeting.onTest { MockGreeting("test") }
        #expect(container.greeting().text == "test")
    }

    @Test func contextOverrideWinsOverRegister() {
        let container = Container()
        container.greeting.register { MockGreeting("registered") }
        container.greeting.onTest { MockGreeting("test") }
        #expect(container.greeting().text == "test")
        container.greeting.reset(.context)
        #expect(container.greeting().text == "registered")
    }

    @Test func argumentBeatsTestBeatsDebug() {
        let container = Container()
        let argument = "-context-precedence-\(UInt64.random(in: 0...UInt64.max))"
        container.greeting
            .onDebug { MockGreeting("debug") }
            .onTest { MockGreeting("test") }
            .onArg(argument) { MockGreeting("arg") }
        #expect(container.greeting().text == "test")
        FactoryContext.setArg(argument, forKey: argument)
        defer { FactoryContext.removeArg(forKey: argument) }
        #expect(container.greeting().text == "arg")
    }

    @Test func onArgsMatchesAnyOfItsArguments() {
        let container = Container()
        let argument = "-context-args-\(UInt64.random(in: 0...UInt64.max))"
        container.service.onArgs(["-never-set", argument]) { Service(id: 3) }
        #expect(container.service().id == 0)
        FactoryContext.setArg(argument, forKey: argument)
        defer { FactoryContext.removeArg(forKey: argument) }
        #expect(container.service().id == 3)
    }

    @Test func contextListOverridesInAnyOfItsContexts() {
        let container = Container()
        container.service.context(.device, .simulator) { Service(id: 4) }
        #expect(container.service().id == 4)
        container.numbered.onTest { Service(id: $0 * 2) }
        #expect(container.numbered(4).id == 8)
    }

    @Test func previewContextDoesNotApplyOutsidePreviews() {
        let container = Container()
        container.service.onPreview { Service(id: 5) }
        #expect(container.service().id == 0)
    }

    @Test func launchArgumentsAreIgnoredInReleaseUnlessEnabled() {
        let release = FactoryContext(arguments: ["app", "-mock"], isDebug: false)
        let debug = FactoryContext(arguments: ["app", "-mock"], isDebug: true)
        #expect(FactoryContextType.arg("-mock").matches(debug))
        #expect(FactoryContextType.args(["-x", "-mock"]).matches(debug))
        if !FactoryContext.honorsLaunchOverridesInRelease {
            #expect(!FactoryContextType.arg("-mock").matches(release))
        }
        var runtime = release
        runtime.runtimeArguments["mock"] = "-mock"
        #expect(FactoryContextType.arg("-mock").matches(runtime))
    }

    @Test func previewIsIgnoredInReleaseUnlessEnabled() {
        let release = FactoryContext(arguments: [], isPreview: true, isDebug: false)
        let debug = FactoryContext(arguments: [], isPreview: true, isDebug: true)
        #expect(FactoryContextType.preview.matches(debug))
        if !FactoryContext.honorsLaunchOverridesInRelease {
            #expect(!FactoryContextType.preview.matches(release))
        }
    }

    @Test func contextsInADefinitionKeepWorkingAcrossEvaluations() {
        let container = Container()
        let definition = { Factory<Service>(container, key: "contextual") { Service(id: 1) }.onTest { Service(id: 2) } }
        #expect(definition()().id == 2)
        #expect(definition()().id == 2)
    }
}

@Suite(.serialized) struct ReleaseOverrideSwitchTests {
    @Test func theSwitchEnablesLaunchArgumentsInRelease() {
        let release = FactoryContext(arguments: ["app", "-mock"], isPreview: true, isDebug: false)
        FactoryContext.honorsLaunchOverridesInRelease = true
        defer { FactoryContext.honorsLaunchOverridesInRelease = false }
        #expect(FactoryContextType.arg("-mock").matches(release))
        #expect(FactoryContextType.preview.matches(release))
    }
}

@Suite struct FactoryContextFirstUseTests {
    /// A process whose first use of `FactoryContext` changes it (a runtime argument
    /// set at launch) once deadlocked: the change held the context's lock while the
    /// published snapshot was set up, which waited for the same lock.
    #if EXIT_TESTS
    @Test func aProcessMayChangeTheContextBeforeItEverReadsIt() async {
        await #expect(processExitsWith: .success) {
            startThread {
                if !Signal().wait(upTo: watchdogBound) { fatalError("watchdog: the first setArg deadlocked") }
            }
            FactoryContext.setArg("first", forKey: "first-use")
            precondition(FactoryContext.current.hasArgument("first"))
            FactoryContext.honorsLaunchOverridesInRelease = FactoryContext.honorsLaunchOverridesInRelease
        }
    }
    #endif
}
