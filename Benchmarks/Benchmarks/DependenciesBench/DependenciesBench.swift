import BenchHarness
import ScenariosDependencies

let benchmarks: @Sendable () -> Void = {
    registerBenchmarks(DependenciesScenarios.make())
}
