import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the main thread and the workers share while the load runs.
final class LoadControl: Sendable {
    /// Whether workers start new requests; cleared to end the load.
    let issuing = Atomic(true)
    /// Whether answers count for throughput and latency (after the warm-up).
    let measuring = Atomic(false)
    /// Set just before SIGTERM is sent: from then on, a connection closed without an
    /// answer or refused is the server stopping, not an error.
    let sigtermSent = Atomic(false)
    /// Answers received so far, all workers together.
    let answered = Atomic(0)
    /// Malformed requests still to send, all hostile connections together.
    let malformedLeft: Atomic<Int>
    /// Stop starting requests once this many were answered (0: no limit).
    let requestLimit: Int

    init(malformed: Int, requestLimit: Int) {
        malformedLeft = Atomic(malformed)
        self.requestLimit = requestLimit
    }
}

/// What one worker saw; the run adds them up.
struct Tally: Sendable {
    /// Requests written whole, by kind.
    var sent = [Int](repeating: 0, count: RequestKind.allCases.count)
    /// Well-formed requests answered as the mix asks, by kind.
    var answered = [Int](repeating: 0, count: RequestKind.allCases.count)
    /// Their answers, by status.
    var statuses: [Int: Int] = [:]
    /// Complete answers carrying an `X-Request-ID`: the requests the server's middleware numbered.
    var answeredWithRequestID = 0
    /// Answers completed after SIGTERM was sent.
    var answeredAfterSigterm = 0
    /// Answers completed while measuring.
    var answeredMeasured = 0
    /// Latencies of the answers completed while measuring, in microseconds.
    var latencies: [UInt32] = []
    /// Failures: a request lost, cut short, mismatched or refused while the server ran.
    var errors: [String: Int] = [:]
    /// What is expected only once the server stops: refused connections, requests on
    /// a connection the server closed before reading them.
    var stopping: [String: Int] = [:]
    /// What the server did with each kind of malformed request.
    var malformedOutcomes: [RequestKind: [String: Int]] = [:]
    /// Connections opened.
    var connections = 0
    /// A few failures, described.
    var examples: [String] = []

    mutating func add(_ other: Tally) {
        for index in sent.indices {
            sent[index] += other.sent[index]
            answered[index] += other.answered[index]
        }
        statuses.merge(other.statuses, uniquingKeysWith: +)
        answeredWithRequestID += other.answeredWithRequestID
        answeredAfterSigterm += other.answeredAfterSigterm
        answeredMeasured += other.answeredMeasured
        latencies += other.latencies
        errors.merge(other.errors, uniquingKeysWith: +)
        stopping.merge(other.stopping, uniquingKeysWith: +)
        malformedOutcomes.merge(other.malformedOutcomes) { $0.merging($1, uniquingKeysWith: +) }
        connections += other.connections
        examples += other.examples.prefix(max(0, 10 - examples.count))
    }

    mutating func fail(_ kind: String, _ example: @autoclosure () -> String) {
        errors[kind, default: 0] += 1
        if examples.count < 10 { examples.append(example()) }
    }
}

/// One thread's share of the connections: each sends one request at a time and
/// reads its answer before the next (keep-alive, no pipelining), on non-blocking
/// sockets watched with `poll`.
final class Worker {
    private struct Connection {
        enum Phase { case idle, connecting, writing, reading, done }
        let number: Int
        let hostile: Bool
        var fd: Int32 = -1
        var phase = Phase.idle
        var out: [UInt8] = []
        var written = 0
        var input: [UInt8] = []
        var kind = RequestKind.whoAmI
        var id = ""
        var user = ""
        var started: UInt64 = 0
        var sequence = 0
        var retryAt: UInt64 = 0
    }

    private let port: Int
    private let control: LoadControl
    private let timeout: UInt64
    private var connections: [Connection]
    private var tally = Tally()
    private var scratch = [UInt8](repeating: 0, count: 65_536)

    /// A worker for the connections numbered `normal` and `hostile`.
    init(port: Int, normal: [Int], hostile: [Int], control: LoadControl, timeout: Duration) {
        self.port = port
        self.control = control
        self.timeout = UInt64(timeout.components.seconds) * 1_000_000_000
        connections =
            normal.map { Connection(number: $0, hostile: false) } + hostile.map { Connection(number: $0, hostile: true) }
        tally.latencies.reserveCapacity(1 << 20)
    }

    /// Runs until the control stops issuing and every request in flight ended.
    func run() -> Tally {
        var fds: [pollfd] = []
        var polled: [Int] = []
        while true {
            let now = monotonicNanoseconds()
            let issuing =
                control.issuing.load(ordering: .relaxed)
                && (control.requestLimit == 0 || control.answered.load(ordering: .relaxed) < control.requestLimit)
            var active = 0
            fds.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            for index in connections.indices {
                if connections[index].phase == .idle {
                    if !issuing {
                        closeSocket(index)
                        connections[index].phase = .done
                        continue
                    }
                    if connections[index].retryAt > now {
                        active += 1
                        continue
                    }
                    start(index, now: now)
                }
                let connection = connections[index]
                switch connection.phase {
                case .done, .idle:
                    continue
                case .connecting, .writing, .reading:
                    if now &- connection.started > timeout {
                        tally.fail(
                            "timeout (no answer in \(timeout / 1_000_000_000) s)",
                            "\(connection.kind.label) \(connection.id): no answer")
                        if connection.kind.isMalformed { noteMalformed(connection.kind, "no answer, timeout") }
                        closeSocket(index)
                        connections[index].phase = .idle
                        connections[index].sequence += 1
                        continue
                    }
                }
                active += 1
                let events: Int16
                switch connection.phase {
                case .connecting: events = Int16(POLLOUT)
                case .writing: events = Int16(POLLOUT | POLLIN)
                default: events = Int16(POLLIN)
                }
                fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
                polled.append(index)
            }
            if active == 0 { break }
            if fds.isEmpty {
                usleep(1000)
                continue
            }
            let ready = poll(&fds, nfds_t(fds.count), 5)
            guard ready > 0 else { continue }
            for (slot, index) in polled.enumerated() where fds[slot].revents != 0 {
                handle(index, events: fds[slot].revents)
            }
        }
        return tally
    }

    // MARK: Starting a request

    private func start(_ index: Int, now: UInt64) {
        var connection = connections[index]
        let kind = nextKind(connection)
        connection.kind = kind
        connection.id = "L\(connection.number)-\(connection.sequence)"
        connection.user = "u\(connection.number)"
        connection.out = kind.bytes(id: connection.id, user: connection.user)
        connection.written = 0
        connection.input.removeAll(keepingCapacity: true)
        connection.started = now
        // A malformed request breaks its connection: it gets one of its own.
        if kind.isMalformed, connection.fd >= 0 {
            Socket.close(connection.fd)
            connection.fd = -1
        }
        connections[index] = connection
        if connections[index].fd < 0 {
            switch Socket.connect(port: port) {
            case .started(let fd):
                connections[index].fd = fd
                connections[index].phase = .connecting
                tally.connections += 1
            case .failed(let error):
                refused(index, error: error)
            }
        } else {
            connections[index].phase = .writing
            write(index)
        }
    }

    /// The next request of a connection: the mix from the connection's own offset;
    /// on a hostile connection, malformed requests and headers at the limits in turn
    /// while malformed ones are left to send.
    private func nextKind(_ connection: Connection) -> RequestKind {
        let step = connection.sequence
        if connection.hostile {
            if step % 2 == 0 {
                if control.malformedLeft.subtract(1, ordering: .relaxed).newValue >= 0 {
                    return RequestKind.malformed[(step / 2 + connection.number) % RequestKind.malformed.count]
                }
                control.malformedLeft.add(1, ordering: .relaxed)
            } else if step % 4 == 1 {
                return .longRequestID
            } else {
                return .longUser
            }
        }
        return RequestKind.mix[(connection.number + step) % RequestKind.mix.count]
    }

    // MARK: Events

    private func handle(_ index: Int, events: Int16) {
        switch connections[index].phase {
        case .connecting:
            let error = Socket.pendingError(connections[index].fd)
            if error != 0 {
                refused(index, error: error)
                return
            }
            connections[index].phase = .writing
            write(index)
        case .writing:
            if events & Int16(POLLIN) != 0 {
                // The server answered (or closed) before reading all of the request.
                connections[index].phase = .reading
                read(index)
            } else {
                write(index)
            }
        case .reading:
            read(index)
        case .idle, .done:
            break
        }
    }

    private func write(_ index: Int) {
        let connection = connections[index]
        let count = Socket.write(connection.fd, connection.out, from: connection.written)
        if count < 0 {
            // Reset or closed while writing: whatever the server said is in the socket.
            connections[index].phase = .reading
            read(index, writeFailed: Int32(-count))
            return
        }
        connections[index].written += count
        if connections[index].written == connection.out.count {
            tally.sent[connection.kind.rawValue] += 1
            if connection.kind == .cutShort {
                Socket.shutdownWrites(connection.fd)
            }
            connections[index].phase = .reading
        }
    }

    private func read(_ index: Int, writeFailed: Int32? = nil) {
        var ended: Int32?  // 0: end of stream; else errno
        while true {
            guard let count = Socket.read(connections[index].fd, into: &connections[index].input, scratch: &scratch) else {
                break
            }
            if count == 0 {
                ended = 0
                break
            }
            if count < 0 {
                ended = Int32(-count)
                break
            }
            if count < scratch.count { break }
        }
        if ended == nil, let writeFailed { ended = writeFailed }
        let connection = connections[index]
        if !connection.input.isEmpty {
            switch ResponseParser.parse(connection.input, isHead: connection.kind == .whoAmIHead) {
            case .complete(let response):
                answered(index, response)
                return
            case .malformed(let reason):
                tally.fail("malformed answer", "\(connection.kind.label) \(connection.id): \(reason)")
                closeSocket(index)
                connections[index].phase = .idle
                return
            case .incomplete:
                break
            }
        }
        guard let ended else { return }  // more to come
        lost(index, ended: ended)
    }

    // MARK: Outcomes

    private func answered(_ index: Int, _ response: ParsedResponse) {
        let now = monotonicNanoseconds()
        var connection = connections[index]
        let kind = connection.kind
        control.answered.add(1, ordering: .relaxed)
        if response.requestID != nil {
            tally.answeredWithRequestID += 1
        }
        if control.sigtermSent.load(ordering: .relaxed) {
            tally.answeredAfterSigterm += 1
        }
        if kind.isMalformed {
            let byApp = response.requestID != nil ? " by the app" : ""
            noteMalformed(kind, "answered \(response.status)\(byApp)")
            if !(400..<500).contains(response.status) {
                tally.fail("malformed request answered \(response.status)", "\(kind.label): \(response.status)")
            }
            closeSocket(index)
            connections[index].phase = .idle
            connections[index].sequence += 1
            return
        }
        if let problem = check(response, of: connection) {
            tally.fail(problem.kind, "\(kind.label) \(connection.id): \(problem.detail)")
        } else {
            tally.answered[kind.rawValue] += 1
            tally.statuses[response.status, default: 0] += 1
        }
        if control.measuring.load(ordering: .relaxed) {
            tally.answeredMeasured += 1
            tally.latencies.append(UInt32(min((now &- connection.started) / 1000, UInt64(UInt32.max))))
        }
        if connection.input.count > response.length {
            tally.fail("bytes after an answer", "\(kind.label) \(connection.id)")
            connection.input.removeAll(keepingCapacity: true)
        }
        connection.sequence += 1
        connection.phase = .idle
        connections[index] = connection
        if response.closes {
            closeSocket(index)
        }
    }

    /// What is wrong with an answer to a well-formed request, if anything.
    private func check(_ response: ParsedResponse, of connection: Connection) -> (kind: String, detail: String)? {
        let kind = connection.kind
        guard response.status == kind.expectedStatus else {
            return ("unexpected status", "\(response.status), not \(kind.expectedStatus)")
        }
        guard let echoed = response.requestID else {
            return ("answer without X-Request-ID", "no X-Request-ID")
        }
        if kind == .longRequestID {
            guard echoed.hasPrefix("req-"), echoed.utf8.count <= 128, response.body.count < 1024 else {
                return ("long X-Request-ID echoed", "X-Request-ID of \(echoed.utf8.count) bytes, body \(response.body.count)")
            }
            return nil
        }
        guard echoed == connection.id else {
            return ("answer to another request", "X-Request-ID '\(echoed.prefix(40))'")
        }
        if kind == .whoAmI {
            let names = Array("\"requestID\":\"\(connection.id)\"".utf8)
            let user = Array("\"user\":\"\(connection.user)\"".utf8)
            guard ResponseParser.contains(names, in: response.body), ResponseParser.contains(user, in: response.body) else {
                return ("answer to another request", "body does not name \(connection.id) and \(connection.user)")
            }
        }
        return nil
    }

    /// The connection ended, or was reset, before a whole answer arrived.
    private func lost(_ index: Int, ended error: Int32) {
        let connection = connections[index]
        let how = error == 0 ? "closed" : (error == ECONNRESET ? "reset" : "failed (errno \(error))")
        if connection.kind.isMalformed {
            noteMalformed(
                connection.kind, connection.input.isEmpty ? "connection \(how), no answer" : "answer cut short, connection \(how)"
            )
        } else if connection.input.isEmpty {
            // Nothing of an answer: the server had not taken the request (it closed the
            // connection, as it does when it stops). Expected only then; the run checks
            // that the server numbered no request whose answer was lost.
            let label = "requests on a connection \(how) before any answer (not taken)"
            if control.sigtermSent.load(ordering: .relaxed) {
                tally.stopping[label, default: 0] += 1
            } else {
                tally.fail(label, "\(connection.kind.label) \(connection.id)")
            }
        } else {
            tally.fail(
                "answer cut short (connection \(how))",
                "\(connection.kind.label) \(connection.id): \(connection.input.count) bytes")
        }
        closeSocket(index)
        connections[index].phase = .idle
        // Not answered: the next request is a new one (a real client would retry an idempotent one).
        connections[index].sequence += 1
    }

    private func refused(_ index: Int, error: Int32) {
        closeSocket(index)
        connections[index].phase = .idle
        let label = error == ECONNREFUSED ? "new connections refused" : "connections failed (errno \(error))"
        if control.sigtermSent.load(ordering: .relaxed) {
            tally.stopping[label, default: 0] += 1
            // Try again a little later: the load goes on until the server has exited.
            connections[index].retryAt = monotonicNanoseconds() + 5_000_000
        } else {
            tally.fail(label, "connection \(connections[index].number)")
            connections[index].retryAt = monotonicNanoseconds() + 100_000_000
        }
    }

    private func noteMalformed(_ kind: RequestKind, _ outcome: String) {
        tally.malformedOutcomes[kind, default: [:]][outcome, default: 0] += 1
    }

    private func closeSocket(_ index: Int) {
        if connections[index].fd >= 0 {
            Socket.close(connections[index].fd)
            connections[index].fd = -1
        }
    }
}
