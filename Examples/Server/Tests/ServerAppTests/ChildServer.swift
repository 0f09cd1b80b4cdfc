import Foundation

/// `FactoryServer` in a child process, its standard output and standard error collected.
struct ChildServer {
    let process: Process
    let output: Output
    let errors: Output

    /// Collects one of a child's streams on a thread of its own.
    final class Output: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var text = ""
        private var ended = false

        func append(_ data: Data) {
            lock.withLock { text += String(decoding: data, as: UTF8.self) }
        }

        func end() {
            lock.withLock { ended = true }
        }

        /// Whether the child closed the stream (it exited) and all of it was read.
        var isComplete: Bool {
            lock.withLock { ended }
        }

        var lines: [String] {
            lock.withLock { text.split(separator: "\n").map(String.init) }
        }
    }

    /// Starts `FactoryServer` with `arguments` (by default, on a free port).
    static func start(_ arguments: [String] = ["--port", "0"]) throws -> ChildServer {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let server = ChildServer(process: process, output: Output(), errors: Output())
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        for (pipe, output) in [(outputPipe, server.output), (errorPipe, server.errors)] {
            Thread.detachNewThread {
                while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty { output.append(data) }
                output.end()
            }
        }
        return server
    }

    /// `FactoryServer`, built beside this test bundle (the test target depends on it).
    private static func executable() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("FactoryServer")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    /// The port from the `listening on ...:<port>` line, once printed.
    func port() async -> Int? {
        guard await eventually({ output.lines.contains { $0.hasPrefix("listening on ") } }) else { return nil }
        return output.lines.first { $0.hasPrefix("listening on ") }?.split(separator: ":").last.flatMap { Int($0) }
    }

    /// The exit status, once the process ended and its output was read (within 10 seconds).
    func exitStatus() async -> Int32? {
        guard await eventually({ !process.isRunning && output.isComplete && errors.isComplete }) else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }
}
