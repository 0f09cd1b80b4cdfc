// Builds the results table from one run of everything (run.sh calls this):
//
//   - package-benchmark samples (`--format histogramSamples`) from two passes:
//     wall time from a build without the malloc interposer, mallocs from the
//     default build with it;
//   - instructions per operation from InstructionProbe under valgrind;
//   - scenario 10 from the Launch* programs, each run in fresh processes.
//
// It prints Markdown and, with --readme, replaces the part of README.md
// between the `results:begin` and `results:end` markers.
import Foundation

// MARK: - Command line

struct Options {
    var timeResults = "results/time"
    var mallocResults = "results/malloc"
    var binDirectory = ".build/release"
    var probe: String?
    var launchRuns = 101
    var probeOperations = 20_000
    var valgrind = true
    var readme: String?
    var swiftVersion = "unknown"
    var loadFile: String?
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        func value() -> String {
            guard let next = arguments.next() else { fatalError("\(argument) needs a value") }
            return next
        }
        switch argument {
        case "--time-results": options.timeResults = value()
        case "--malloc-results": options.mallocResults = value()
        case "--bin": options.binDirectory = value()
        case "--probe": options.probe = value()
        case "--launch-runs": options.launchRuns = Int(value()) ?? options.launchRuns
        case "--probe-operations": options.probeOperations = Int(value()) ?? options.probeOperations
        case "--no-valgrind": options.valgrind = false
        case "--readme": options.readme = value()
        case "--swift-version": options.swiftVersion = value()
        case "--load": options.loadFile = value()
        default: fatalError("unknown option \(argument)")
        }
    }
    return options
}

// MARK: - Libraries and scenarios

struct Library: Hashable {
    let column: String
    let target: String  // benchmark executable
    let variant: String?  // " (sync)" suffix in benchmark names
    let probeName: String
    let launchProgram: String?

    static let baseline = Library(column: "Baseline", target: "BaselineBench", variant: nil, probeName: "baseline", launchProgram: "LaunchBaseline")
    static let factory = Library(column: "Factory", target: "FactoryBench", variant: nil, probeName: "factory", launchProgram: "LaunchFactory")
    static let swinject = Library(column: "Swinject", target: "SwinjectBench", variant: nil, probeName: "swinject", launchProgram: "LaunchSwinject")
    static let swinjectSync = Library(column: "Swinject (sync)", target: "SwinjectBench", variant: "sync", probeName: "swinject", launchProgram: nil)
    static let dependencies = Library(column: "swift-dependencies", target: "DependenciesBench", variant: nil, probeName: "dependencies", launchProgram: "LaunchDependencies")

    static let all: [Library] = [.baseline, .factory, .swinject, .swinjectSync, .dependencies]
    static let peers: [Library] = [.swinject, .swinjectSync, .dependencies]

    func benchmarkName(_ scenario: String) -> String {
        variant.map { "\(scenario) (\($0))" } ?? scenario
    }
}

struct Row {
    let name: String  // benchmark name
    let label: String
    let threaded: Bool
    /// The scenario's work runs on the concurrency runtime's threads, not on the
    /// thread that enters `probe_measured`: callgrind's toggle does not count it.
    let onPool: Bool
    init(_ name: String, _ label: String, threaded: Bool = false, onPool: Bool = false) {
        self.name = name
        self.label = label
        self.threaded = threaded
        self.onPool = onPool
    }

    /// Whether InstructionProbe under callgrind counts this scenario's work.
    var countsInstructions: Bool { !threaded && !onPool }
}

let rows: [Row] = [
    Row("01 unique", "1 unique resolve"),
    Row("02 singleton", "2 singleton resolve"),
    Row("03a cached", "3a cached resolve"),
    Row("03b shared-held", "3b shared (weak) resolve, held"),
    Row("02f strong-read-floor", "2f floor: lock-free strong read of a shared object"),
    Row("04 chain-ABC", "4 chain A(B(C))"),
    Row("05 graph-root", "5 graph: root needs Dep twice"),
    Row("06 parameter", "6 parameter factory"),
    Row("06b parameter-cached-hit", "6b per-parameter cached hit (scopeOnParameters)"),
    Row("07 register-then-resolve", "7 register override, resolve once"),
    Row("08 injected-x3", "8 object with 3 injected properties"),
    Row("09a singleton-1-thread", "9a singleton, 1 thread", threaded: true),
    Row("09b singleton-2-threads", "9b singleton, 2 threads (aggregate)", threaded: true),
    Row("09f strong-read-floor-2-threads", "9f floor: strong read, 2 threads (aggregate)", threaded: true),
    Row("11a unique-checks-off", "11a unique, cycle check + trace off"),
    Row("11b unique-cycle-check-on", "11b unique, cycle check on"),
    Row("11c unique-trace-on", "11c unique, trace on (logger discards)"),
    Row("11d unique-profiled", "11d unique, a FactoryProfile recording on"),
    Row("12a async-cached-hit", "12a async factory, cached hit", onPool: true),
    Row("12b async-first-build-100-tasks", "12b async factory, first build, 100 tasks", onPool: true),
]

// MARK: - Harness samples

/// Median of a metric's samples, per operation, or nil if not measured.
/// Keys are "target|benchmark name".
func loadSamples(directory: String, metric: String) -> [String: Double] {
    var result: [String: Double] = [:]
    let suffix = ".\(metric).histogram.samples.tsv"
    guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return result }
    for file in files where file.hasSuffix(suffix) {
        // <baseline>.<target>.<name with spaces as _>.<metric>.histogram.samples.tsv
        let stem = String(file.dropLast(suffix.count))
        let parts = stem.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { continue }
        let target = String(parts[1])
        let name = String(parts[2])
        guard let text = try? String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8) else { continue }
        // The header names the unit the samples were divided by, e.g.
        // "Malloc (total) (K)"; run.sh asks for plain counts and nanoseconds,
        // but scale back anyway if the harness chose a larger unit.
        let lines = text.split(separator: "\n")
        let header = lines.first.map(String.init) ?? ""
        let multiplier: Double = header.hasSuffix("(K)") ? 1e3 : header.hasSuffix("(M)") ? 1e6 : header.hasSuffix("(G)") ? 1e9
            : header.hasSuffix("(us)") || header.hasSuffix("(μs)") ? 1e3 : header.hasSuffix("(ms)") ? 1e6 : 1
        let values = lines.dropFirst().compactMap { Double($0.trimmingCharacters(in: .whitespaces)).map { $0 * multiplier } }
        guard !values.isEmpty else { continue }
        let sorted = values.sorted()
        let median = sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        result["\(target)|\(name)"] = median
    }
    return result
}

func sampleKey(_ library: Library, _ row: Row) -> String {
    "\(library.target)|\(library.benchmarkName(row.name).replacingOccurrences(of: " ", with: "_"))"
}

func operationsPerSample(_ row: Row) -> Double { row.threaded ? 1_000_000 : 1_000 }

// MARK: - Processes

struct ProcessResult {
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
}

func run(_ executable: String, _ arguments: [String]) -> ProcessResult? {
    // Output goes to temporary files: no pipe can fill up and block the child.
    let directory = FileManager.default.temporaryDirectory
    let outURL = directory.appendingPathComponent("benchreport-\(UUID().uuidString).out")
    let errURL = directory.appendingPathComponent("benchreport-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    guard let out = try? FileHandle(forWritingTo: outURL), let err = try? FileHandle(forWritingTo: errURL) else {
        return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    let start = DispatchTime.now().uptimeNanoseconds
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    try? out.close()
    try? err.close()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
        seconds: seconds
    )
}

func which(_ tool: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(directory)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

// MARK: - Instructions (valgrind)

func measureInstructions(options: Options, log: (String) -> Void) -> [String: Double] {
    var result: [String: Double] = [:]
    guard options.valgrind, let valgrind = which("valgrind") else {
        log("valgrind not found: no instruction counts")
        return result
    }
    let probe = options.probe ?? "\(options.binDirectory)/InstructionProbe"
    guard FileManager.default.isExecutableFile(atPath: probe) else {
        log("no probe at \(probe): no instruction counts")
        return result
    }
    for library in Library.all {
        for row in rows where row.countsInstructions {
            let name = library.benchmarkName(row.name)
            guard let listed = run(probe, [library.probeName]), listed.stdout.split(separator: "\n").contains(Substring(name)) else {
                continue
            }
            let n = options.probeOperations
            guard let measured = run(valgrind, [
                "--tool=callgrind", "--callgrind-out-file=/dev/null",
                "--collect-atstart=no", "--toggle-collect=probe_measured",
                probe, library.probeName, name, String(n),
            ]), measured.status == 0 else {
                log("valgrind failed for \(library.column) / \(name)")
                continue
            }
            // "==123== Collected : 20900052"
            if let line = measured.stderr.split(separator: "\n").first(where: { $0.contains("Collected :") }),
               let count = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) {
                result[sampleKey(library, row)] = count / Double(n)
            }
        }
        log("instructions: \(library.column) done")
    }
    return result
}

// MARK: - Launch (scenario 10)

struct LaunchResult {
    var instructions: Double?  // per type, set-up + first resolution, valgrind
    var setUp: Double  // ms, median
    var first: Double  // ms, median
    var total: Double  // setUp + first, ms, median of per-run sums
    var process: Double  // whole process wall time, ms, median
    var sameInstances: Bool
}

func measureLaunch(options: Options, log: (String) -> Void) -> [Library: LaunchResult] {
    var result: [Library: LaunchResult] = [:]
    let programs = Library.all.filter { $0.launchProgram != nil }
    var samples: [Library: [(Double, Double, Double, Bool)]] = [:]
    // Interleave the programs so that machine noise hits all of them alike.
    for _ in 0..<options.launchRuns {
        for library in programs {
            let path = "\(options.binDirectory)/\(library.launchProgram!)"
            guard let output = run(path, []), output.status == 0,
                  let data = output.stdout.data(using: .utf8),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let setUp = (json["setUpNs"] as? NSNumber)?.doubleValue,
                  let first = (json["firstNs"] as? NSNumber)?.doubleValue
            else {
                log("launch program \(path) failed")
                continue
            }
            let same = (json["sameInstances"] as? Bool) ?? false
            samples[library, default: []].append((setUp / 1e6, first / 1e6, output.seconds * 1e3, same))
        }
    }
    // Instructions of the two measured phases (set-up, first resolution) only:
    // the programs run them inside `launch_phase`. Deterministic, so one run
    // each, on the debug-info-free copies next to the probe.
    var instructions: [Library: Double] = [:]
    if options.valgrind, let valgrind = which("valgrind") {
        let directory = options.probe.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? options.binDirectory
        for library in programs {
            let path = "\(directory)/\(library.launchProgram!)"
            guard FileManager.default.isExecutableFile(atPath: path),
                  let measured = run(valgrind, [
                      "--tool=callgrind", "--callgrind-out-file=/dev/null",
                      "--collect-atstart=no", "--toggle-collect=*launch_phase*", path,
                  ]), measured.status == 0,
                  let line = measured.stderr.split(separator: "\n").first(where: { $0.contains("Collected :") }),
                  let count = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
            else {
                log("no launch instruction count for \(library.column)")
                continue
            }
            instructions[library] = count / 1_000
        }
    }
    for (library, runs) in samples {
        result[library] = LaunchResult(
            instructions: instructions[library],
            setUp: median(runs.map(\.0)),
            first: median(runs.map(\.1)),
            total: median(runs.map { $0.0 + $0.1 }),
            process: median(runs.map(\.2)),
            sameInstances: runs.allSatisfy(\.3)
        )
    }
    return result
}

// MARK: - Formatting

func format(_ value: Double?, digits: Int = 1) -> String {
    guard let value, value.isFinite else { return "–" }
    return String(format: "%.\(digits)f", value)
}

func ratio(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b, b > 0, a.isFinite, b.isFinite else { return nil }
    return a / b
}

func formatRatio(_ value: Double?) -> String {
    guard let value else { return "–" }
    return String(format: "%.2f×", value)
}

func machineDescription(swiftVersion: String) -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    let date = ISO8601DateFormatter().string(from: Date())
    return "\(ProcessInfo.processInfo.activeProcessorCount) CPUs (`nproc`), \(model), Linux \(kernel), \(swiftVersion); run \(date)"
}

// MARK: - Main

let options = parseOptions()
func log(_ message: String) {
    FileHandle.standardError.write(Data("[report] \(message)\n".utf8))
}

let times = loadSamples(directory: options.timeResults, metric: "wallClock")
let mallocs = loadSamples(directory: options.mallocResults, metric: "mallocCountTotal")
let harnessInstructions = loadSamples(directory: options.mallocResults, metric: "instructions")
if times.isEmpty { log("no wall-clock samples in \(options.timeResults)") }
if mallocs.isEmpty { log("no malloc samples in \(options.mallocResults)") }

func time(_ library: Library, _ row: Row) -> Double? {
    times[sampleKey(library, row)].map { $0 / operationsPerSample(row) }
}

func mallocCount(_ library: Library, _ row: Row) -> Double? {
    guard let value = mallocs[sampleKey(library, row)] else { return nil }
    // Subtract what the harness itself mallocs per sample.
    let overhead = mallocs["\(library.target)|00_overhead"] ?? 0
    return max(0, value - overhead) / operationsPerSample(row)
}

let instructionsFromCallgrind = !harnessInstructions.values.contains { $0 > 0 }
let instructions: [String: Double] = instructionsFromCallgrind
    ? measureInstructions(options: options, log: log)
    : harnessInstructions.mapValues { $0 / 1_000 }
let instructionSource = instructionsFromCallgrind
    ? "valgrind (callgrind) on `InstructionProbe`, \(options.probeOperations) operations after 1,000 warm-up ones, because this machine exposes no hardware counters to perf_events"
    : "the harness's `instructions` metric (perf_events)"
let launch = measureLaunch(options: options, log: log)

func fastestPeer(_ row: Row) -> (Library, Double)? {
    Library.peers.compactMap { peer in time(peer, row).map { (peer, $0) } }.min { $0.1 < $1.1 }
}

var out = ""
@MainActor func line(_ text: String = "") { out += text + "\n" }

line("Machine: \(machineDescription(swiftVersion: options.swiftVersion)).")
if let file = options.loadFile, let text = try? String(contentsOfFile: file, encoding: .utf8) {
    let loads = text.split(separator: "\n").joined(separator: "; ")
    line("Load average (1, 5, 15 min) — \(loads). Other work on the machine inflates times, most of all scenario 9's long samples.")
}
line()
line("### Time per operation (ns, median; lower is better)")
line()
line("Wall clock from package-benchmark (1,000 operations per sample, 1,000,000 for scenario 9), built without the malloc interposer. \"–\": the library has no such feature. The baseline for 2, 3 and 9 is a `static let` read, hence the large ratios there; the targets below compare with direct construction (row 1's baseline). Scenario 9 is per operation over all threads, so a smaller number on 2 threads is more throughput.")
line()
line("| Scenario | " + Library.all.map(\.column).joined(separator: " | ") + " | Factory ÷ baseline | Factory ÷ fastest peer |")
line("|---|" + String(repeating: "---:|", count: Library.all.count + 2))
for row in rows {
    let cells = Library.all.map { format(time($0, row)) }
    let factory = time(.factory, row)
    let toBaseline = formatRatio(ratio(factory, time(.baseline, row)))
    let peer = fastestPeer(row)
    let toPeer = peer.map { "\(formatRatio(ratio(factory, $0.1))) (\($0.0.column))" } ?? "–"
    line("| \(row.label) | " + cells.joined(separator: " | ") + " | \(toBaseline) | \(toPeer) |")
}
line()
line("### Mallocs per operation (median, harness overhead subtracted)")
line()
line("| Scenario | " + Library.all.map(\.column).joined(separator: " | ") + " |")
line("|---|" + String(repeating: "---:|", count: Library.all.count))
for row in rows {
    line("| \(row.label) | " + Library.all.map { format(mallocCount($0, row), digits: 2) }.joined(separator: " | ") + " |")
}
line()
line("### Instructions per operation")
line()
if instructionsFromCallgrind {
    line("From \(instructionSource). Scenarios 9 and 12 are left out: callgrind's toggle follows the thread that enters `probe_measured`, and their work runs on others (9's own threads, 12's in the concurrency runtime's pool).")
} else {
    line("From \(instructionSource).")
}
line()
line("| Scenario | " + Library.all.map(\.column).joined(separator: " | ") + " |")
line("|---|" + String(repeating: "---:|", count: Library.all.count))
for row in rows where !row.threaded && (row.countsInstructions || !instructionsFromCallgrind) {
    line("| \(row.label) | " + Library.all.map { format(instructions[sampleKey($0, row)], digits: 0) }.joined(separator: " | ") + " |")
}
line()
line("### 10. App launch: 1,000 factories, first resolution of each, fresh process")
line()
line("Median of \(options.launchRuns) fresh processes per library (run interleaved). Each program declares 1,000 distinct service classes, cached/container-scoped (baseline: one `static let` each), and resolves each once. *Set-up* is creating the container and registering (only Swinject registers); *first resolution* is resolving all 1,000 once; *instructions* count those two phases under valgrind (deterministic, unlike the milliseconds); *process* is the whole process, exec to exit, including loading the libraries.")
line()
line("| Library | set-up (ms) | first resolution of 1,000 (ms) | set-up + first (ms) | instructions per type, set-up + first | whole process (ms) | same instances on 2nd pass |")
line("|---|---:|---:|---:|---:|---:|---|")
for library in Library.all {
    guard let result = launch[library] else { continue }
    line("| \(library.column) | \(format(result.setUp, digits: 2)) | \(format(result.first, digits: 2)) | \(format(result.total, digits: 2)) | \(format(result.instructions, digits: 0)) | \(format(result.process, digits: 1)) | \(result.sameInstances ? "yes" : "NO") |")
}
line()

// MARK: Targets

func verdict(_ met: Bool?) -> String {
    switch met {
    case true?: return "**met**"
    case false?: return "**missed**"
    case nil: return "not measured"
    }
}

func row(_ name: String) -> Row { rows.first { $0.name == name }! }
let unique = row("01 unique"), singleton = row("02 singleton"), cached = row("03a cached")
let injected = row("08 injected-x3"), chain = row("04 chain-ABC")
let oneThread = row("09a singleton-1-thread"), twoThreads = row("09b singleton-2-threads")
let checksOff = row("11a unique-checks-off"), cycleOn = row("11b unique-cycle-check-on")
let floor = row("02f strong-read-floor"), floor2 = row("09f strong-read-floor-2-threads")
let direct = time(.baseline, unique)

line("### Targets")
line()
line("| Target | Measured | Verdict |")
line("|---|---|---|")
do {
    // Issue 22: against the hand-written floors, measured in the same run.
    let strong = time(.baseline, floor)
    let rs = ratio(time(.factory, singleton), strong)
    let rc = ratio(time(.factory, cached), strong)
    let met: Bool? = rs.flatMap { s in rc.map { s <= 1.2 && $0 <= 1.2 } }
    line("| Singleton and cached hit ≤ 1.2× the lock-free strong read (2f) | singleton \(format(time(.factory, singleton))) ns = \(formatRatio(rs)), cached \(format(time(.factory, cached))) ns = \(formatRatio(rc)), floor \(format(strong)) ns | \(verdict(met)) |")
    let ru = ratio(time(.factory, unique), direct)
    line("| Unique resolve ≤ 1.3× direct construction | \(format(time(.factory, unique))) ns vs \(format(direct)) ns = \(formatRatio(ru)) | \(verdict(ru.map { $0 <= 1.3 })) |")
    let rch = ratio(time(.factory, chain), time(.baseline, chain))
    line("| Chain of three ≤ 1.3× direct | \(format(time(.factory, chain))) ns vs \(format(time(.baseline, chain))) ns = \(formatRatio(rch)) | \(verdict(rch.map { $0 <= 1.3 })) |")
    let r2 = ratio(time(.factory, twoThreads), time(.baseline, floor2))
    line("| Two threads on one singleton ≤ 1.2× the strong read's own two-thread time (9f) | \(format(time(.factory, twoThreads), digits: 2)) ns/op vs \(format(time(.baseline, floor2), digits: 2)) ns/op = \(formatRatio(r2)) | \(verdict(r2.map { $0 <= 1.2 })) |")
}
do {
    let r = ratio(time(.factory, unique), direct)
    line("| Unique resolve ≤ 1.5× direct construction | \(format(time(.factory, unique))) ns vs \(format(direct)) ns = \(formatRatio(r)); \(format(instructions[sampleKey(.factory, unique)], digits: 0)) vs \(format(instructions[sampleKey(.baseline, unique)], digits: 0)) instructions | \(verdict(r.map { $0 <= 1.5 })) |")
}
do {
    let rs = ratio(time(.factory, singleton), direct)
    let rc = ratio(time(.factory, cached), direct)
    let ms = mallocCount(.factory, singleton)
    let mc = mallocCount(.factory, cached)
    let isn = instructions[sampleKey(.factory, singleton)]
    let icn = instructions[sampleKey(.factory, cached)]
    let met: Bool? = {
        guard let rs, let rc, let ms, let mc else { return nil }
        let fewInstructions = (isn.map { $0 <= 320 } ?? true) && (icn.map { $0 <= 320 } ?? true)
        return rs <= 1 && rc <= 1 && ms < 0.005 && mc < 0.005 && fewInstructions
    }()
    line("| Singleton and cached hit ≤ 1× direct construction and ≤ 320 instructions, zero mallocs | singleton \(format(time(.factory, singleton))) ns = \(formatRatio(rs)), \(format(isn, digits: 0)) instructions, \(format(ms, digits: 2)) mallocs; cached \(format(time(.factory, cached))) ns = \(formatRatio(rc)), \(format(icn, digits: 0)) instructions, \(format(mc, digits: 2)) mallocs | \(verdict(met)) |")
}
do {
    let r = ratio(time(.factory, injected), time(.baseline, injected))
    line("| Object with three `@Injected` ≤ 3× direct | \(format(time(.factory, injected))) ns vs \(format(time(.baseline, injected))) ns = \(formatRatio(r)) | \(verdict(r.map { $0 <= 3 })) |")
}
do {
    // Same number of operations per sample: throughput ratio = t(1) / t(2).
    let r = ratio(time(.factory, oneThread), time(.factory, twoThreads))
    // The baseline's own scaling shows how much of a second core was free.
    let available = ratio(time(.baseline, oneThread), time(.baseline, twoThreads))
    let relative: Double? = r.flatMap { r in available.map { r / $0 } }
    line("| 2-thread singleton throughput scaling ≥ 0.9× the `static let` baseline's own scaling | \(format(time(.factory, oneThread), digits: 2)) ns/op on 1 thread, \(format(time(.factory, twoThreads), digits: 2)) ns/op on 2 = \(formatRatio(r)) throughput; the baseline scaled \(formatRatio(available)); relative \(formatRatio(relative)) | \(verdict(relative.map { $0 >= 0.9 })) |")
}
do {
    let override = row("07 register-then-resolve")
    let ours = time(.factory, override)
    let peers = Library.peers.compactMap { peer in time(peer, override).map { (peer, $0) } }
    let met: Bool? = ours.map { o in !peers.isEmpty && peers.allSatisfy { o < $0.1 } }
    let detail = peers.map { "\($0.0.column) \(format($0.1)) ns" }.joined(separator: ", ")
    line("| Override-then-resolve (7) faster than every peer | \(format(ours)) ns; \(detail) | \(verdict(met)) |")
}
do {
    let asyncHit = rows.first { $0.name == "12a async-cached-hit" }.flatMap { time(.factory, $0) }
    let r = ratio(asyncHit, time(.factory, cached))
    line("| Async cached hit ≤ 2× a synchronous cached hit | \(format(asyncHit)) ns vs \(format(time(.factory, cached))) ns = \(formatRatio(r)) | \(verdict(r.map { $0 <= 2 })) |")
}
do {
    let off = time(.factory, checksOff)
    let on = time(.factory, cycleOn)
    let added = ratio(on, off).map { $0 - 1 }
    line("| Cycle detection on adds ≤ 10% to a unique resolve | \(format(off)) ns off, \(format(on)) ns on = \(added.map { String(format: "%+.1f%%", $0 * 100) } ?? "–") | \(verdict(added.map { $0 <= 0.10 })) |")
}
do {
    let ours = launch[.factory], theirs = launch[.swinject]
    let met: Bool? = ours.flatMap { o in theirs.map { o.total <= $0.total } }
    let instructionNote: String = {
        guard let o = ours?.instructions, let t = theirs?.instructions else { return "" }
        return "; instructions per type \(format(o, digits: 0)) vs \(format(t, digits: 0))"
    }()
    line("| First resolution of each of 1,000 types ≤ Swinject's (set-up + first resolution, wall time) | \(format(ours?.total, digits: 2)) ms vs \(format(theirs?.total, digits: 2)) ms\(instructionNote); whole process \(format(ours?.process)) vs \(format(theirs?.process)) ms | \(verdict(met)) |")
}
do {
    var losses: [String] = []
    var compared = 0
    for row in rows where !(row.name.hasPrefix("11")) {
        guard let ours = time(.factory, row) else { continue }
        for peer in Library.peers {
            guard let theirs = time(peer, row) else { continue }
            compared += 1
            if ours >= theirs {
                losses.append("\(row.label): \(format(ours)) vs \(peer.column) \(format(theirs)) ns")
            }
        }
    }
    let detail = losses.isEmpty ? "faster in all \(compared) scenario × peer pairs" : "slower or equal in \(losses.count) of \(compared): " + losses.joined(separator: "; ")
    line("| Faster than both peers in every scenario they support | \(detail) | \(verdict(compared == 0 ? nil : losses.isEmpty)) |")
}

print(out, terminator: "")

if let readme = options.readme {
    let begin = "<!-- results:begin -->"
    let end = "<!-- results:end -->"
    guard var text = try? String(contentsOfFile: readme, encoding: .utf8),
          let b = text.range(of: begin), let e = text.range(of: end), b.upperBound <= e.lowerBound
    else {
        log("\(readme) has no \(begin) … \(end) markers; not updated")
        exit(0)
    }
    text.replaceSubrange(b.upperBound..<e.lowerBound, with: "\n" + out)
    try text.write(toFile: readme, atomically: true, encoding: .utf8)
    log("updated \(readme)")
}
