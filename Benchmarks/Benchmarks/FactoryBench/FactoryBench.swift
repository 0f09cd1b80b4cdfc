import BenchHarness
import ScenariosFactory

let benchmarks: @Sendable () -> Void = {
    registerBenchmarks(FactoryScenarios.make())
}
