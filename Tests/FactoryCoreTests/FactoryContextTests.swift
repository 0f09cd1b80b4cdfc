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

    // The release switch is a parameter of matching: these tests pass it and never
    // read or set the process-wide flag (which ReleaseOverrideSwitchTests sets in
    // a child process only).
    @Test func launchArgumentsAreIgnoredInReleaseUnlessEnabled() {
        let release = FactoryContext(arguments: ["app", "-mock"], isDebug: false)
        let debug = FactoryContext(arguments: ["app", "-mock"], isDebug: true)
        for honors in [false, true] {
            #expect(FactoryContextType.arg("-mock").matches(debug, honorsLaunchOverridesInRelease: honors))
            #expect(FactoryContextType.args(["-x", "-mock"]).matches(debug, honorsLaunchOverridesInRelease: honors))
        }
        #expect(!FactoryContextType.arg("-mock").matches(release, honorsLaunchOverridesInRelease: false))
        #expect(!FactoryContextType.args(["-x", "-mock"]).matches(release, honorsLaunchOverridesInRelease: false))
        #expect(FactoryContextType.arg("-mock").matches(release, honorsLaunchOverridesInRelease: true))
        var runtime = release
        runtime.runtimeArguments["mock"] = "-mock"
        #expect(FactoryContextType.arg("-mock").matches(runtime, honorsLaunchOverridesInRelease: false))
    }

    @Test func previewIsIgnoredInReleaseUnlessEnabled() {
        let release = FactoryContext(arguments: [], isPreview: true, isDebug: false)
        let debug = FactoryContext(arguments: [], isPreview: true, isDebug: true)
        #expect(FactoryContextType.preview.matches(debug, honorsLaunchOverridesInRelease: false))
        #expect(!FactoryContextType.preview.matches(release, honorsLaunchOverridesInRelease: false))
        #expect(FactoryContextType.preview.matches(release, honorsLaunchOverridesInRelease: true))
    }

    @Test func contextsInADefinitionKeepWorkingAcrossEvaluations() {
        let container = Container()
        let definition = { Factory<Service>(container, key: "contextual") { Service(id: 1) }.onTest { Service(id: 2) } }
        #expect(definition()().id == 2)
        #expect(definition()().id == 2)
    }
}

/// The process-wide switch, end to end. It runs in a child process: a test that
/// set it in this one would change what every other suite's context matching sees.
@Suite struct ReleaseOverrideSwitchTests {
    #if EXIT_TESTS
    @Test func theSwitchEnablesLaunchArgumentsAndPreviewsInRelease() async {
        await #expect(processExitsWith: .success) {
            let container = Container()
            let flagged = Factory<Service>(container, key: "flagged") { Service(id: 0) }.onArg("-mock") { Service(id: 1) }
            let previewed = Factory<Service>(container, key: "previewed") { Service(id: 0) }.onPreview { Service(id: 2) }
            FactoryContext.current = FactoryContext(arguments: ["app", "-mock"], isPreview: true, isDebug: false)
            precondition(!FactoryContext.honorsLaunchOverridesInRelease, "the switch is off by default")
            precondition(flagged().id == 0 && previewed().id == 0, "a release build ignores launch overrides")
            FactoryContext.honorsLaunchOverridesInRelease = true
            precondition(FactoryContext.honorsLaunchOverridesInRelease)
            precondition(flagged().id == 1, "the switch enables launch arguments")
            precondition(previewed().id == 2, "the switch enables previews")
        }
    }
    #endif
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
            precondition(FactoryContext.current.hasArgument("first", honorsLaunchOverridesInRelease: false))
            FactoryContext.honorsLaunchOverridesInRelease = FactoryContext.honorsLaunchOverridesInRelease
        }
    }
    #endif
}
