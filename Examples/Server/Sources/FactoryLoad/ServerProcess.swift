import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FactoryServer` in a child process: its output read as it comes, its memory
/// read from outside, stopped with a signal.
final class ServerProcess: Sendable {
    /// One of the child's streams, collected on a thread of its own.
    final class Stream: Sendable {
        private struct State {
            var lines: [String] = []
            var partial: [UInt8] = []
            var bytes = 0
            var longestLine = 0
            var ended = false
        }
        private let state = Mutex(State())
        /// Lines kept: the first ones and then the last ones, so that a talkative
        /// server's log does not fill the load generator's memory.
        private let keep: Int

        init(keep: Int) {
            self.keep = keep
        }

        func append(_ data: Data) {
            state.withLock { state in
                state.bytes += data.count
                for byte in data {
                    if byte == UInt8(ascii: "\n") {
                        state.longestLine = max(state.longestLine, state.partial.count)
                        let line = String(decoding: state.partial, as: UTF8.self)
                        state.partial.removeAll(keepingCapacity: true)
                        state.lines.append(line)
                        if state.lines.count > keep * 2 {
                            state.lines.remove(at: keep)
                        }
                    } else if state.partial.count < 1_000_000 {
                        state.partial.append(byte)
                    }
                }
            }
        }

        func end() {
            state.withLock { state in
                if !state.partial.isEmpty {
                    state.longestLine = max(state.longestLine, state.partial.count)
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll()
                }
                state.ended = true
            }
        }

        var lines: [String] { state.withLock { $0.lines } }
        var bytes: Int { state.withLock { $0.bytes } }
        var longestLine: Int { state.withLock { $0.longestLine } }
        var isComplete: Bool { state.withLock { $0.ended } }
    }

    let process: Process
    let output = Stream(keep: 200)
    let errors = Stream(keep: 20)

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts `executable` with `arguments`.
    init(executable: String, arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for (pipe, stream) in [(outputPipe, output), (errorPipe, errors)] {
            Thread.detachNewThread {
                while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                    stream.append(data)
                }
                stream.end()
            }
        }
    }

    /// The port of the `listening on ...:<port>` line, once printed (within `seconds`).
    func port(within seconds: Double) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = output.lines.first(where: { $0.hasPrefix("listening on ") }) {
                return line.split(separator: ":").last.flatMap { Int($0) }
            }
            if !process.isRunning { return nil }
            usleep(20_000)
        }
        return nil
    }

    /// The resident memory of the child, in bytes.
    func residentBytes() -> Int? {
        #if os(Linux)
        // VmRSS of /proc/<pid>/status, in kB.
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let number = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
        #else
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-o", "rss=", "-p", "\(pid)"]
        let pipe = Pipe()
        ps.standardOutput = pipe
        guard (try? ps.run()) != nil else { return nil }
        ps.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 * 1024 }
        #endif
    }

    /// The processor time the child used so far, user and system, in seconds
    /// (Linux: `/proc/<pid>/stat`; nil elsewhere).
    func cpuSeconds() -> Double? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        return nil
        #endif
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// The exit status once the child exited and its output was read, or nil after `seconds`.
    func exitStatus(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !process.isRunning, output.isComplete, errors.isComplete {
                return process.terminationStatus
            }
            usleep(5_000)
        }
        return nil
    }

    /// Whether the child is still running.
    var isRunning: Bool { process.isRunning }
}
