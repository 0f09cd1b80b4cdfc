import BenchHarness
import ScenariosBaseline

let benchmarks: @Sendable () -> Void = {
    registerBenchmarks(BaselineScenarios.make())
}
