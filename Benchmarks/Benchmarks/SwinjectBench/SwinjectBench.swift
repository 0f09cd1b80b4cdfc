import BenchHarness
import ScenariosSwinject

let benchmarks: @Sendable () -> Void = {
    registerBenchmarks(SwinjectScenarios.make())
}
