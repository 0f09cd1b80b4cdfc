import Benchmark

/// The metrics every suite records: time, instructions (Linux: perf_events,
/// reported as 0 where the kernel or VM has no hardware counters), mallocs.
public let standardMetrics: [BenchmarkMetric] = [.wallClock, .instructions, .mallocCountTotal, .throughput]

/// Every suite uses the same settings so that numbers compare across processes.
///
/// Each measured sample runs 1,000 operations (`scalingFactor: .kilo`) so the
/// clock's own cost is negligible; the report divides by 1,000.
public func configureSuite() {
    Benchmark.defaultConfiguration = .init(
        metrics: standardMetrics,
        timeUnits: .nanoseconds,
        warmupIterations: 20,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(1_500),
        maxIterations: 1_000_000
    )
}

/// Scenario 9: each sample is `threadedOperations` operations in total, split
/// over the threads, including the cost of starting the threads.
public let threadedConfiguration = Benchmark.Configuration(
    metrics: standardMetrics,
    timeUnits: .nanoseconds,
    warmupIterations: 2,
    scalingFactor: .mega,
    maxDuration: .seconds(3),
    maxIterations: 40
)

/// Benchmark names: "NN key" where NN/key is the scenario; the report maps
/// them to rows. A variant of a library appends " (variant)".
public enum Scenario {
    public static let unique = "01 unique"
    public static let singleton = "02 singleton"
    public static let cached = "03a cached"
    public static let sharedHeld = "03b shared-held"
    public static let chain = "04 chain-ABC"
    public static let graph = "05 graph-root"
    public static let parameter = "06 parameter"
    public static let registerResolve = "07 register-then-resolve"
    public static let injected3 = "08 injected-x3"
    public static let singleton1Thread = "09a singleton-1-thread"
    public static let singleton2Threads = "09b singleton-2-threads"
    public static let uniqueChecksOff = "11a unique-checks-off"
    public static let uniqueCycleOn = "11b unique-cycle-check-on"
    public static let uniqueTraceOn = "11c unique-trace-on"
}
