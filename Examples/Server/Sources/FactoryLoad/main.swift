import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// FactoryLoad: puts FactoryServer under load and checks what a server team would.
//
// It starts the server (a child process on a free loopback port), sends a fixed mix
// of the example's routes over keep-alive connections, reads the server's memory
// from outside, stops it with SIGTERM (under load with --sigterm) and checks: every
// answer as the mix asks, no request the server took left without its whole answer,
// every request-scoped instance released, the services shut down once each in
// reverse order, exit 0 in time, memory flat after the warm-up. Exit status 0 when
// every check passed, 1 when one failed, 2 for a bad command line.

let usage = """
    usage: FactoryLoad --server <path to FactoryServer> [options]
      --wiring factory|hand|both   the server's wiring; both: alternate runs of each, then the ratio (default factory)
      --rounds <n>                 with --wiring both: runs of each (default 3)
      --connections <n>            keep-alive connections (default 32)
      --threads <n>                load generator threads (default 2)
      --duration <s>               seconds of load (default 30; with --requests, the most)
      --requests <n>               stop once this many were answered
      --warmup <s>                 seconds before measuring (default 5)
      --sigterm                    send SIGTERM while the load runs (default: stop the load, then SIGTERM)
      --malformed <n>              also send n malformed requests, and headers at the limits, on 2 more connections
      --rss-bound <MiB>            memory bound over the RSS after warm-up (default 16)
      --exit-timeout <s>           how long the server may take to exit after SIGTERM (default 30)
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\(usage)\n".utf8))
    exit(2)
}

/// The run plan and the number of rounds, from the command line.
func parseOptions() -> (plan: RunPlan, rounds: Int) {
    var plan = RunPlan(server: "", wiring: "factory")
    var rounds = 3
    var arguments = CommandLine.arguments.dropFirst()[...]
    func value(_ name: String) -> String {
        guard let value = arguments.popFirst() else { fail("\(name) needs a value") }
        return value
    }
    func number(_ name: String) -> Double {
        let text = value(name)
        guard let number = Double(text), number >= 0 else { fail("\(name) takes a number, not '\(text)'") }
        return number
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--server": plan.server = value(argument)
        case "--wiring":
            plan.wiring = value(argument)
            guard ["factory", "hand", "both"].contains(plan.wiring) else { fail("--wiring takes factory, hand or both") }
        case "--rounds": rounds = max(1, Int(number(argument)))
        case "--connections": plan.connections = max(1, Int(number(argument)))
        case "--threads": plan.threads = max(1, Int(number(argument)))
        case "--duration": plan.duration = number(argument)
        case "--requests": plan.requests = Int(number(argument))
        case "--warmup": plan.warmup = number(argument)
        case "--sigterm": plan.sigterm = true
        case "--malformed": plan.malformed = Int(number(argument))
        case "--rss-bound": plan.rssBoundMiB = number(argument)
        case "--exit-timeout": plan.exitTimeout = number(argument)
        case "--help", "-h":
            print(usage)
            exit(0)
        default: fail("unknown argument '\(argument)'")
        }
    }
    if plan.requests > 0, !CommandLine.arguments.contains("--duration") {
        plan.duration = 3600
    }
    return (plan, rounds)
}

let (plan, rounds) = parseOptions()
guard !plan.server.isEmpty else { fail("--server is required") }
guard FileManager.default.isExecutableFile(atPath: plan.server) else { fail("no executable at \(plan.server)") }
signal(SIGPIPE, SIG_IGN)

print("FactoryLoad: \(machine())")
print("server: \(plan.server)")
print("mix per connection, repeated: \(mixDescription())")
fflush(nil)

if plan.wiring == "both" {
    var results: [String: [RunResult]] = ["factory": [], "hand": []]
    var allPassed = true
    for round in 0..<rounds {
        // In turn, the order swapped every round, so that the machine's load weighs on both alike.
        for wiring in round % 2 == 0 ? ["factory", "hand"] : ["hand", "factory"] {
            var runPlan = plan
            runPlan.wiring = wiring
            runPlan.quiet = true
            print("\n== round \(round + 1), wiring \(wiring)")
            let result = runLoad(runPlan)
            report(result, brief: true)
            allPassed = allPassed && result.passed
            results[wiring, default: []].append(result)
        }
    }
    compare(results)
    exit(allPassed ? 0 : 1)
} else {
    print(
        "load: wiring \(plan.wiring), \(plan.connections) connections on \(plan.threads) threads, "
            + (plan.requests > 0 ? "\(plan.requests) requests" : "\(Int(plan.duration)) s")
            + ", warm-up \(Int(plan.warmup)) s" + (plan.sigterm ? ", SIGTERM while the load runs" : ", then SIGTERM")
            + (plan.malformed > 0 ? ", \(plan.malformed) malformed requests" : ""))
    fflush(nil)
    let result = runLoad(plan)
    report(result, brief: false)
    exit(result.passed ? 0 : 1)
}

// MARK: Printing

func machine() -> String {
    var parts = ["\(ProcessInfo.processInfo.activeProcessorCount) CPUs"]
    if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let model = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })?.split(separator: ":").last
    {
        parts.append(model.trimmingCharacters(in: .whitespaces))
    }
    var name = utsname()
    uname(&name)
    let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    parts.append("\(system) \(release)")
    parts.append("load average \(loadAverage())")
    return parts.joined(separator: ", ")
}

func loadAverage() -> String {
    var loads = [0.0, 0.0, 0.0]
    guard getloadavg(&loads, 3) == 3 else { return "?" }
    return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

func mixDescription() -> String {
    var counts: [RequestKind: Int] = [:]
    for kind in RequestKind.mix { counts[kind, default: 0] += 1 }
    return RequestKind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.label)" } }.joined(separator: ", ")
}

func report(_ result: RunResult, brief: Bool) {
    if let failure = result.failedToStart {
        print("FAIL: \(failure)")
        return
    }
    let sorted = result.tally.latencies.sorted()
    let tally = result.tally
    print(
        String(
            format: "answered: %d in %.1f s; measured %.1f s after the warm-up: %.0f requests/s",
            result.answered, result.loadSeconds, result.measuredSeconds, result.throughput))
    print(
        String(
            format: "latency after warm-up: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
            result.latency(0.5, sorted: sorted), result.latency(0.99, sorted: sorted), result.latency(1, sorted: sorted)))
    if let cpu = result.cpuPerRequest {
        print(String(format: "server processor time after warm-up: %.0f µs per request (user + system)", cpu))
    }
    print(
        "answers by status: "
            + tally.statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    let failures = tally.errors.sorted { $0.key < $1.key }
    print("errors: " + (failures.isEmpty ? "none" : failures.map { "\($0.key): \($0.value)" }.joined(separator: ", ")))
    for example in tally.examples.prefix(5) {
        print("  e.g. \(example)")
    }
    if result.plan.sigterm {
        let stopping = tally.stopping.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        print(
            String(format: "SIGTERM at %.1f s, under load: ", result.sigtermAfter ?? 0)
                + "\(tally.answeredAfterSigterm) answers completed after it, whole"
                + (stopping.isEmpty ? "" : "; " + stopping.joined(separator: "; ")))
    }
    if result.plan.malformed > 0 {
        print("malformed requests, by kind: what the server did")
        for kind in RequestKind.malformed {
            let outcomes = (tally.malformedOutcomes[kind] ?? [:]).sorted { $0.key < $1.key }
            print("  \(kind.label): " + outcomes.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
        for kind in [RequestKind.longRequestID, .longUser] {
            print("  \(kind.label): \(tally.answered[kind.rawValue]) answered as expected of \(tally.sent[kind.rawValue])")
        }
    }
    print(
        String(
            format: "server RSS: start %.1f MiB, after warm-up %.1f MiB, end %.1f MiB (peak after warm-up %.1f MiB)",
            mib(result.rssStart), mib(result.rssWarm), mib(result.rssEnd), mib(result.rssPeakAfterWarmup)))
    if !brief {
        print("server's output at exit:")
        for line in result.serverLines.filter({ !$0.hasPrefix("listening on") }).suffix(14) {
            print("  \(line)")
        }
    }
    print("checks:")
    for check in result.checks {
        print("  \(check.passed ? "ok  " : "FAIL") \(check.text)")
    }
    print(result.passed ? "result: PASS" : "result: FAIL")
    fflush(nil)
}

func compare(_ results: [String: [RunResult]]) {
    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var rows: [String: (throughput: Double, p50: Double, p99: Double, max: Double, cpu: Double)] = [:]
    print("\n== factory vs hand-written wiring: medians of \(results["factory"]?.count ?? 0) runs each")
    print("wiring    requests/s    p50 ms   p99 ms   max ms   server µs/request   (each run's requests/s)")
    for wiring in ["factory", "hand"] {
        let runs = results[wiring] ?? []
        let latencies = runs.map { $0.tally.latencies.sorted() }
        let row = (
            throughput: median(runs.map(\.throughput)),
            p50: median(zip(runs, latencies).map { $0.latency(0.5, sorted: $1) }),
            p99: median(zip(runs, latencies).map { $0.latency(0.99, sorted: $1) }),
            max: median(zip(runs, latencies).map { $0.latency(1, sorted: $1) }),
            cpu: median(runs.compactMap(\.cpuPerRequest))
        )
        rows[wiring] = row
        print(
            String(
                format: "%@ %10.0f  %8.2f %8.2f %8.2f   %17.0f   ",
                wiring.padding(toLength: 9, withPad: " ", startingAt: 0) as NSString, row.throughput, row.p50, row.p99,
                row.max, row.cpu)
                + runs.map { String(format: "%.0f", $0.throughput) }.joined(separator: ", "))
    }
    if let factory = rows["factory"], let hand = rows["hand"], hand.throughput > 0, hand.p99 > 0 {
        let ratio = factory.throughput / hand.throughput
        print(
            String(
                format: "factory ÷ hand: throughput %.3f (%+.1f %%; goal: within 5 %%, %@), p99 %.2f×, p50 %.2f×",
                ratio, (ratio - 1) * 100, (ratio >= 0.95 ? "met" : "missed") as NSString, factory.p99 / hand.p99,
                factory.p50 / hand.p50))
        if hand.cpu > 0 {
            print(
                String(
                    format:
                        "server processor time per request: factory %.0f µs, hand %.0f µs: the container per request costs %.0f µs (%.2f×)",
                    factory.cpu, hand.cpu, factory.cpu - hand.cpu, factory.cpu / hand.cpu))
        }
    }
    fflush(nil)
}
