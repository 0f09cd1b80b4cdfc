import BenchSupport
import Benchmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long each benchmark runs, in ms: `FACTORY_BENCH_MAX_MS` or 1,500.
/// run.sh shortens it for the malloc pass, whose counts do not vary.
func maxDuration() -> Duration {
    if let raw = getenv("FACTORY_BENCH_MAX_MS"), let ms = Int(String(cString: raw)), ms > 0 {
        return .milliseconds(ms)
    }
    return .milliseconds(1_500)
}

/// The metrics every suite records: time, instructions (on Linux through
/// perf_events; 0 where the kernel or VM exposes no hardware counters) and
/// mallocs.
public let standardMetrics: [BenchmarkMetric] = [.wallClock, .instructions, .mallocCountTotal, .throughput]

/// Plain counts: with the default (automatic) units the harness exports
/// samples divided by 1,000 or 1,000,000 once they get large.
var countUnits: [BenchmarkMetric: BenchmarkUnits] { [.mallocCountTotal: .count, .instructions: .count] }

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
        units: countUnits,
        warmupIterations: 20,
        scalingFactor: .kilo,
        maxDuration: maxDuration(),
        maxIterations: 1_000_000
    )
    let threaded = Benchmark.Configuration(
        metrics: standardMetrics,
        timeUnits: .nanoseconds,
        units: countUnits,
        warmupIterations: 2,
        scalingFactor: .mega,
        maxDuration: maxDuration() * 2,
        maxIterations: 40
    )
    // The harness's own per-sample cost (it mallocs a few times around each
    // sample): the report subtracts this benchmark's mallocs from the others.
    let overhead = Scenario(ScenarioName.overhead) { n in
        for _ in 0..<n { sink(n) }
    }
    for scenario in [overhead] + scenarios {
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
