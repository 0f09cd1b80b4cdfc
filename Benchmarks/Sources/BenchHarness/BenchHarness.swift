import BenchSupport
import Benchmark

/// The metrics every suite records: time, instructions (on Linux through
/// perf_events; 0 where the kernel or VM exposes no hardware counters) and
/// mallocs.
public let standardMetrics: [BenchmarkMetric] = [.wallClock, .instructions, .mallocCountTotal, .throughput]

/// Registers `scenarios` with package-benchmark, all with the same settings
/// so that numbers compare across the per-library processes.
///
/// A normal sample runs 1,000 operations (`scalingFactor: .kilo`) so that the
/// clock's own cost is negligible; a threaded sample runs
/// `threadedOperations`, including starting the threads.
public func registerBenchmarks(_ scenarios: [Scenario]) {
    Benchmark.defaultConfiguration = .init(
        metrics: standardMetrics,
        timeUnits: .nanoseconds,
        warmupIterations: 20,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(1_500),
        maxIterations: 1_000_000
    )
    let threaded = Benchmark.Configuration(
        metrics: standardMetrics,
        timeUnits: .nanoseconds,
        warmupIterations: 2,
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 40
    )
    for scenario in scenarios {
        let run = scenario.run
        if scenario.threaded {
            Benchmark(scenario.name, configuration: threaded) { benchmark in
                run(benchmark.scaledIterations.count)
            }
        } else {
            Benchmark(scenario.name) { benchmark in
                run(benchmark.scaledIterations.count)
            }
        }
    }
}
