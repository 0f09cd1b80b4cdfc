import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a run is made.
struct RunPlan: Sendable {
    var server: String
    var wiring: String
    var connections = 32
    var threads = 2
    var duration = 30.0
    var requests = 0
    var warmup = 5.0
    var sigterm = false
    var malformed = 0
    var hostileConnections = 2
    var rssBoundMiB = 16.0
    var exitTimeout = 30.0
    var quiet = false
}

/// One check of a run, passed or failed.
struct Check {
    let passed: Bool
    let text: String
}

/// What one run measured and checked.
struct RunResult {
    let plan: RunPlan
    var tally = Tally()
    var loadSeconds = 0.0
    var measuredSeconds = 0.0
    var rssStart = 0
    var rssWarm = 0
    var rssEnd = 0
    var rssPeakAfterWarmup = 0
    /// The server's processor time while measuring, in seconds.
    var serverCPUSeconds: Double?
    var sigtermAfter: Double?
    var exitAfter: Double?
    var exitStatus: Int32?
    var serverLines: [String] = []
    var logBytes = 0
    var longestLogLine = 0
    var checks: [Check] = []
    var failedToStart: String?

    var throughput: Double { measuredSeconds > 0 ? Double(tally.answeredMeasured) / measuredSeconds : 0 }
    /// The server's processor time per answer while measuring, in microseconds.
    var cpuPerRequest: Double? {
        guard let seconds = serverCPUSeconds, tally.answeredMeasured > 0 else { return nil }
        return seconds * 1e6 / Double(tally.answeredMeasured)
    }
    var passed: Bool { failedToStart == nil && checks.allSatisfy(\.passed) }
    var answered: Int { tally.answered.reduce(0, +) }

    /// The latency at `fraction` (0.5, 0.99, 1) of the measured answers, in ms.
    func latency(_ fraction: Double, sorted: [UInt32]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return Double(sorted[max(0, index)]) / 1000
    }
}

/// Runs one load: starts the server, sends the mix, stops the server, checks.
func runLoad(_ plan: RunPlan) -> RunResult {
    var result = RunResult(plan: plan)
    let server: ServerProcess
    do {
        server = try ServerProcess(executable: plan.server, arguments: ["--port", "0", "--wiring", plan.wiring])
    } catch {
        result.failedToStart = "cannot start \(plan.server): \(error)"
        return result
    }
    guard let port = server.port(within: 60) else {
        server.send(SIGKILL)
        result.failedToStart = "the server did not listen: \(server.errors.lines.suffix(5).joined(separator: " / "))"
        return result
    }
    usleep(200_000)
    result.rssStart = server.residentBytes() ?? 0

    let control = LoadControl(malformed: plan.malformed, requestLimit: plan.requests)
    let tallies = Mutex<[Tally]>([])
    let finished = DispatchSemaphore(value: 0)
    let normal = Array(0..<plan.connections)
    let hostile = plan.malformed > 0 ? Array(plan.connections..<(plan.connections + plan.hostileConnections)) : []
    let threads = max(1, plan.threads)
    for thread in 0..<threads {
        let mine = normal.filter { $0 % threads == thread }
        let hostileMine = hostile.filter { $0 % threads == thread }
        Thread.detachNewThread {
            let worker = Worker(port: port, normal: mine, hostile: hostileMine, control: control, timeout: .seconds(10))
            let tally = worker.run()
            tallies.withLock { $0.append(tally) }
            finished.signal()
        }
    }

    let started = monotonicNanoseconds()
    func elapsed() -> Double { Double(monotonicNanoseconds() - started) / 1e9 }
    var measuringSince: Double?
    var cpuAtWarmup: Double?
    var measuringUntil: Double?
    var lastProgress = 0.0
    var lastSample = 0.0
    while true {
        usleep(50_000)
        let now = elapsed()
        if measuringSince == nil, now >= plan.warmup {
            result.rssWarm = server.residentBytes() ?? 0
            cpuAtWarmup = server.cpuSeconds()
            measuringSince = elapsed()
            control.measuring.store(true, ordering: .relaxed)
        }
        if measuringSince != nil, now - lastSample >= 0.5 {
            lastSample = now
            result.rssPeakAfterWarmup = max(result.rssPeakAfterWarmup, server.residentBytes() ?? 0)
        }
        if !plan.quiet, now - lastProgress >= 10 {
            lastProgress = now
            let rss = Double(server.residentBytes() ?? 0) / 1_048_576
            print(
                String(
                    format: "  %5.0f s: %9d answered, server RSS %.1f MiB", now, control.answered.load(ordering: .relaxed), rss))
            fflush(nil)
        }
        let limitReached = plan.requests > 0 && control.answered.load(ordering: .relaxed) >= plan.requests
        // The malformed requests asked for are all sent before the load ends (within three times its duration).
        let malformedSent = control.malformedLeft.load(ordering: .relaxed) <= 0 || now >= plan.duration * 3
        if now >= plan.duration || limitReached, malformedSent, measuringSince != nil {
            break
        }
        if !server.isRunning { break }
    }
    measuringUntil = elapsed()
    if let before = cpuAtWarmup, let after = server.cpuSeconds() {
        result.serverCPUSeconds = after - before
    }
    result.rssEnd = server.residentBytes() ?? 0
    result.rssPeakAfterWarmup = max(result.rssPeakAfterWarmup, result.rssEnd)

    var sigtermAt: UInt64 = 0
    if plan.sigterm {
        // Under load: the workers go on sending until the server has exited.
        control.sigtermSent.store(true, ordering: .sequentiallyConsistent)
        sigtermAt = monotonicNanoseconds()
        server.send(SIGTERM)
        result.sigtermAfter = elapsed()
        result.exitStatus = server.exitStatus(within: plan.exitTimeout)
        control.measuring.store(false, ordering: .relaxed)
        control.issuing.store(false, ordering: .relaxed)
        for _ in 0..<threads { finished.wait() }
    } else {
        control.measuring.store(false, ordering: .relaxed)
        control.issuing.store(false, ordering: .relaxed)
        for _ in 0..<threads { finished.wait() }
        // A quiet server: every request answered; now the shutdown.
        control.sigtermSent.store(true, ordering: .sequentiallyConsistent)
        sigtermAt = monotonicNanoseconds()
        server.send(SIGTERM)
        result.sigtermAfter = elapsed()
        result.exitStatus = server.exitStatus(within: plan.exitTimeout)
    }
    if result.exitStatus != nil {
        result.exitAfter = Double(monotonicNanoseconds() - sigtermAt) / 1e9
    } else {
        server.send(SIGKILL)
        _ = server.exitStatus(within: 5)
    }
    result.loadSeconds = elapsed()
    result.measuredSeconds = (measuringUntil ?? 0) - (measuringSince ?? 0)
    for tally in tallies.withLock({ $0 }) {
        result.tally.add(tally)
    }
    result.serverLines = server.output.lines
    result.logBytes = server.errors.bytes
    result.longestLogLine = server.errors.longestLine
    result.checks = checks(of: result, exitedBySignal: server.process.terminationReason == .uncaughtSignal)
    return result
}

/// The checks of a run.
private func checks(of result: RunResult, exitedBySignal: Bool) -> [Check] {
    var checks: [Check] = []
    let plan = result.plan
    let tally = result.tally
    let lines = result.serverLines

    // Every well-formed request answered as the mix asks, whole, to the request that asked.
    let failures = tally.errors.values.reduce(0, +)
    checks.append(
        Check(
            passed: failures == 0,
            text: failures == 0
                ? "every answer as the mix asks: \(result.answered) answers, no failure"
                : "\(failures) failures: \(tally.errors.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))"
        ))

    // No accepted request lost: each request the server numbered was answered in full.
    let numbered = lines.first { $0.hasPrefix("requests numbered: ") }.flatMap { Int($0.dropFirst(19)) }
    if let numbered {
        checks.append(
            Check(
                passed: numbered == tally.answeredWithRequestID,
                text:
                    "no accepted request lost: the server numbered \(numbered) requests, \(tally.answeredWithRequestID) answers came back whole"
            ))
    } else {
        checks.append(Check(passed: false, text: "the server printed no 'requests numbered' line"))
    }

    // Every request-scoped instance released; every session ended once.
    if let scope = lines.first(where: { $0.hasPrefix("request scope: ") }) {
        let counts = scope.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let balanced = counts.count == 6 && counts[0] == counts[1] && counts[2] == counts[3] && counts[4] == counts[5]
        checks.append(Check(passed: balanced, text: "request-scoped instances released: \(scope.dropFirst(15))"))
        let dropped =
            lines.first { $0.hasPrefix("(") && $0.hasSuffix("earlier shutdowns not kept)") }
            .flatMap { Int($0.dropFirst().prefix { $0.isNumber }) } ?? 0
        let sessionLines = lines.filter { $0.hasPrefix("shut down: session ") }.count
        if counts.count == 6 {
            checks.append(
                Check(
                    passed: dropped + sessionLines == counts[2],
                    text: "every session ended once: \(dropped + sessionLines) ended, \(counts[2]) made"))
        }
    } else {
        checks.append(Check(passed: false, text: "the server printed no 'request scope' line"))
    }

    // The application's services shut down once each, the store before its pool, last.
    let shutDown = lines.filter { $0.hasPrefix("shut down: ") && !$0.hasPrefix("shut down: session ") }.map { $0.dropFirst(11) }
    checks.append(
        Check(
            passed: shutDown == ["catalog store", "connection pool"],
            text: "application services shut down once each, in reverse order: \(shutDown.joined(separator: ", "))"))

    // Exit 0 within the timeout.
    if let status = result.exitStatus, let after = result.exitAfter {
        checks.append(
            Check(
                passed: status == 0 && !exitedBySignal,
                text: String(
                    format: "exit status %d%@, %.2f s after SIGTERM (limit %.0f s)", status, exitedBySignal ? " (signal)" : "",
                    after, plan.exitTimeout)))
    } else {
        checks.append(Check(passed: false, text: "the server had not exited \(Int(plan.exitTimeout)) s after SIGTERM"))
    }

    // Memory flat after the warm-up.
    let bound = result.rssWarm + Int(plan.rssBoundMiB * 1_048_576)
    checks.append(
        Check(
            passed: result.rssWarm > 0 && result.rssPeakAfterWarmup <= bound && result.rssEnd <= bound,
            text: String(
                format: "memory flat after warm-up: peak %.1f MiB, end %.1f MiB, bound %.1f MiB (after warm-up %.1f + %.0f)",
                mib(result.rssPeakAfterWarmup), mib(result.rssEnd), mib(bound), mib(result.rssWarm), plan.rssBoundMiB)))

    // Nothing a client sent is written to the log at length.
    checks.append(
        Check(
            passed: result.longestLogLine <= 2048,
            text: "server log: \(result.logBytes) bytes, longest line \(result.longestLogLine) bytes (limit 2048)"))

    if plan.malformed > 0 {
        let outcomes = RequestKind.malformed.compactMap { tally.malformedOutcomes[$0] }.flatMap { $0 }
        let sent = outcomes.map(\.value).reduce(0, +)
        let refused =
            outcomes
            .filter { !$0.key.hasPrefix("answered 2") && !$0.key.hasPrefix("answered 5") && !$0.key.contains("timeout") }
            .map(\.value).reduce(0, +)
        checks.append(
            Check(passed: sent >= plan.malformed && refused == sent, text: "malformed requests sent \(sent), refused \(refused)"))
    }
    return checks
}

func mib(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
