/// One measured operation of one library: `run(n)` performs it `n` times.
///
/// The same entries feed the package-benchmark suites (time, mallocs) and the
/// `InstructionProbe` program (instructions under valgrind), so both measure
/// exactly the same code.
public struct Scenario {
    /// The benchmark name, "NN key", optionally followed by " (variant)".
    public let name: String
    /// Scenario 9: `run(n)` spreads `n` operations over real threads, and one
    /// sample is `threadedOperations` operations.
    public let threaded: Bool
    public let run: (Int) -> Void

    public init(_ name: String, threaded: Bool = false, run: @escaping (Int) -> Void) {
        self.name = name
        self.threaded = threaded
        self.run = run
    }

    /// The same scenario under a variant name, e.g. "01 unique (sync)".
    public func variant(_ suffix: String) -> Scenario {
        Scenario("\(name) (\(suffix))", threaded: threaded, run: run)
    }
}

/// The scenario names; the report maps them to rows.
public enum ScenarioName {
    /// An empty loop: what the harness itself costs per sample.
    public static let overhead = "00 overhead"
    public static let unique = "01 unique"
    public static let singleton = "02 singleton"
    public static let cached = "03a cached"
    public static let sharedHeld = "03b shared-held"
    public static let chain = "04 chain-ABC"
    public static let graph = "05 graph-root"
    public static let parameter = "06 parameter"
    /// A `.cached.scopeOnParameters` factory resolved again with an equal
    /// parameter: a per-parameter hit (this library only).
    public static let parameterCached = "06b parameter-cached-hit"
    public static let registerResolve = "07 register-then-resolve"
    public static let injected3 = "08 injected-x3"
    /// The floor for a shared instance (baseline only): a lock-free load of a
    /// published reference, returned strong (one retain, one release).
    public static let strongRead = "02f strong-read-floor"
    /// The same floor on 2 threads at once, reading one object (baseline only).
    public static let strongRead2Threads = "09f strong-read-floor-2-threads"
    public static let singleton1Thread = "09a singleton-1-thread"
    public static let singleton2Threads = "09b singleton-2-threads"
    public static let uniqueChecksOff = "11a unique-checks-off"
    public static let uniqueCycleOn = "11b unique-cycle-check-on"
    public static let uniqueTraceOn = "11c unique-trace-on"
    /// A unique resolve while a `FactoryProfile` recording of its container runs (this library only).
    public static let uniqueProfiled = "11d unique-profiled"
    /// An `AsyncFactory` with `.cached`, resolved again (this library only).
    public static let asyncCached = "12a async-cached-hit"
    /// Reset, then 100 tasks resolve a cached `AsyncFactory` at once: one build (this library only).
    public static let asyncFirstBuild100 = "12b async-first-build-100-tasks"
}

/// How many operations one scenario-9 sample performs in total, whatever the
/// number of threads, so per-op times compare between 1 and 2 threads.
public let threadedOperations = 1_000_000

/// Keeps a value alive as far as the optimizer knows, so a benchmark's work
/// cannot be deleted. Same idea as package-benchmark's `blackHole`, which the
/// scenario modules cannot use because the instruction probe must not link
/// the harness's malloc interposer.
@_optimize(none)
@inline(never)
public func sink<T>(_ value: T) {}
