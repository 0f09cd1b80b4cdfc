import FactoryKit
import FactoryTestSupport
import Testing

/// An argument no other test uses: runtime arguments are process-wide.
private func uniqueArgument(_ name: String) -> String {
    "-\(name)-\(UInt64.random(in: 0...UInt64.max))"
}

// Factory's contexts: `onTest`, `onDebug`, `onArg`, `onArgs`, `context(...)`, and
// their precedence (arguments, then preview, test, simulator/device, debug), all of
// which win over `register`. Tests that set runtime arguments run one at a time,
// each with arguments of its own.
@Suite(.serialized) struct ContextTests {
    @Test func aTestRunIsDetected() {
        #expect(FactoryContext.current.isTest)
    }

    @Test func onTestAppliesUnderTheTestRunner() {
        let container = Container()
        container.weather.onTest { MockWeather("test") }
        #expect(container.weather().source == "test")
    }

    @Test func onDebugAppliesInDebugBuilds() {
        let container = Container()
        container.weather.onDebug { MockWeather("debug") }
        #if DEBUG
        #expect(container.weather().source == "debug")
        #else
        #expect(container.weather().source == "live")
        #endif
    }

    @Test func aContextOverrideWinsOverARegistration() {
        let container = Container()
        container.weather.onTest { MockWeather("test") }
        container.weather.register { MockWeather("registered") }
        #expect(container.weather().source == "test")
    }

    @Test func onArgAppliesWhenTheArgumentIsSet() {
        let container = Container()
        let argument = uniqueArgument("mock-weather")
        container.weather.onArg(argument) { MockWeather("arg") }
        #expect(container.weather().source == "live")
        FactoryContext.setArg(argument, forKey: "weather")
        #expect(container.weather().source == "arg")
        FactoryContext.removeArg(forKey: "weather")
        #expect(container.weather().source == "live")
    }

    @Test func onArgsAppliesWhenAnyOfItsArgumentsIsSet() {
        let container = Container()
        let first = uniqueArgument("first")
        let second = uniqueArgument("second")
        container.weather.onArgs([first, second]) { MockWeather("args") }
        #expect(container.weather().source == "live")
        FactoryContext.setArg(second, forKey: second)
        defer { FactoryContext.removeArg(forKey: second) }
        #expect(container.weather().source == "args")
    }

    @Test func contextTakesSeveralContexts() {
        let container = Container()
        container.weather.context(.preview, .test) { MockWeather("listed") }
        #expect(container.weather().source == "listed")
    }

    @Test func previewAndSimulatorContextsDoNotApplyHere() {
        let container = Container()
        container.weather.onPreview { MockWeather("preview") }
        container.weather.onSimulator { MockWeather("simulator") }
        #expect(container.weather().source == "live")
        container.weather.onDevice { MockWeather("device") }
        #expect(container.weather().source == "device")
    }

    @Test func anArgumentBeatsTestWhichBeatsDebug() {
        let container = Container()
        let argument = uniqueArgument("precedence")
        container.weather
            .onDebug { MockWeather("debug") }
            .onTest { MockWeather("test") }
            .onArg(argument) { MockWeather("arg") }
        #expect(container.weather().source == "test")
        FactoryContext.setArg(argument, forKey: argument)
        defer { FactoryContext.removeArg(forKey: argument) }
        #expect(container.weather().source == "arg")
        container.weather.reset(.context)
        #expect(container.weather().source == "live")
    }

    @Test func testBeatsDeviceWhichBeatsDebug() {
        let container = Container()
        container.weather.onDebug { MockWeather("debug") }
        container.weather.onDevice { MockWeather("device") }
        #expect(container.weather().source == "device")
        container.weather.onTest { MockWeather("test") }
        #expect(container.weather().source == "test")
    }

    @Test func parameterFactoriesTakeContextsToo() {
        let container = Container()
        container.greeting.onTest { Greeting("test \($0)") }
        #expect(container.greeting("Ada").name == "test Ada")
    }

    @Test func aContextInTheDefinitionApplies() {
        let container = Container()
        #expect(container.everyTimeWeather().source == "definition test")
    }
}
