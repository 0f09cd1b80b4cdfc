#if SwiftConcurrency
// Reading a profile: its summary, its tree and its Chrome trace.
extension FactoryProfile {
    /// One line per factory, the largest self time first: its builds' count, total and self time, its scope, the
    /// thread it was built on (`main`, `thread N`, or how many threads), and the factory. A factory built inside
    /// another, or waited for inside it, adds its time to that one's total, not to its self time. For example:
    ///
    /// ```
    /// 2 builds of 2 factories in 31.0 ms recorded
    /// count     total      self  scope      thread        factory
    ///     1   20.1 ms   20.1 ms  singleton  main          Container.database<Database>
    ///     1   30.4 ms   10.3 ms  cached     main          Container.catalog<Catalog>
    /// ```
    public var summary: String {
        // An array searched, not a dictionary by key: no Dictionary<FactoryKey, _> compiled for it.
        var lines:
            [(key: FactoryKey, count: Int, total: UInt64, selfTime: UInt64, scope: String, threads: [UInt64], main: Bool)] =
                []
        for build in builds {
            let index = lines.firstIndex { $0.key == build.key } ?? lines.count
            if index == lines.count { lines.append((build.key, 0, 0, 0, build.scope, [], true)) }
            lines[index].count += 1
            lines[index].total += build.duration
            lines[index].selfTime += build.selfTime
            if !lines[index].threads.contains(build.thread) { lines[index].threads.append(build.thread) }
            lines[index].main = lines[index].main && build.isMainThread
        }
        var text = "\(builds.count) builds of \(lines.count) factories in \(Self.time(end - start)) recorded"
        text += "\ncount     total      self  scope      thread        factory"
        // Largest self time first, ties in first-build order. An insertion sort of a profile's few factories: the
        // `description` witness reaches this from the library, and `sorted(by:)` would add its merge sort there.
        var order: [Int] = []
        for index in lines.indices {
            let place = order.firstIndex { lines[$0].selfTime < lines[index].selfTime } ?? order.count
            order.insert(index, at: place)
        }
        for line in order.map({ lines[$0] }) {
            let thread =
                line.threads.count > 1 ? "\(line.threads.count) threads" : line.main ? "main" : "thread \(line.threads[0])"
            text += "\n" + Self.pad("\(line.count)", 5) + Self.pad(Self.time(line.total), 10)
            text += Self.pad(Self.time(line.selfTime), 10) + "  " + Self.pad(line.scope, 9, left: true)
            text += "  " + Self.pad(thread, 12, left: true) + "  \(line.key)"
        }
        return text
    }

    /// Who built what: each build on a line of its own, indented under the build it ran inside, in start order, with
    /// its time, self time, scope and thread, and the threads or tasks that waited for it.
    public var tree: String {
        var lines: [String] = []
        func add(_ id: Int, _ depth: Int) {
            let build = builds[id]
            let thread = build.isMainThread ? "main" : "thread \(build.thread)"
            var line = String(repeating: "    ", count: depth) + "\(build.key)  \(Self.time(build.duration))"
            line += " (self \(Self.time(build.selfTime))"
            line += build.waiting > 0 ? ", waiting \(Self.time(build.waiting)))" : ")"
            line += "  \(build.scope), \(thread)"
            if let error = build.error { line += ", threw \(error)" }
            lines.append(line)
            for wait in build.waits {
                let waiter = wait.isMainThread ? "main" : "\(wait.isTask ? "a task on " : "")thread \(wait.thread)"
                lines.append(
                    String(repeating: "    ", count: depth + 1) + "waited for by \(waiter) for \(Self.time(wait.duration))")
            }
            for child in build.children { add(child, depth + 1) }
        }
        for build in builds where build.parent == nil { add(build.id, 0) }
        return lines.joined(separator: "\n")
    }

    /// The profile as Chrome's trace event format (JSON), which Perfetto (ui.perfetto.dev) and `chrome://tracing` open
    /// as a flame chart: one complete event (`"ph":"X"`) per build on its thread's track, nested as the builds were,
    /// and one per wait, named `wait for` and the factory, on the waiter's track. Times are microseconds from the
    /// recording's start. An async factory's builds go on a track of their own per outermost async build (named
    /// `tasks:` and its factory), as their awaits may move them between threads.
    public func chromeTrace() -> String {
        var tracks: [(thread: UInt64, name: String)] = []  // a thread, or an outermost async build's id + 2^63
        func track(_ thread: UInt64, _ name: @autoclosure () -> String) -> Int {
            if let index = tracks.firstIndex(where: { $0.thread == thread }) { return index + 1 }
            tracks.append((thread, name()))
            return tracks.count
        }
        func threadName(_ thread: UInt64, main: Bool) -> String { main ? "main thread" : "thread \(thread)" }
        func lane(_ build: Build) -> Int {
            guard build.kind == .asyncFactory || build.kind == .asyncParameterFactory else {
                return track(build.thread, threadName(build.thread, main: build.isMainThread))
            }
            var root = build
            while let parent = root.parent, builds[parent].kind.rawValue.hasPrefix("Async") { root = builds[parent] }
            return track(UInt64(root.id) | 1 << 63, "tasks: \(root.key)")
        }
        var events: [String] = []
        for build in builds {
            var arguments = "\"scope\":\(Self.json(build.scope)),\"kind\":\"\(build.kind.rawValue)\","
            arguments += "\"source\":\"\(build.source.rawValue)\",\"self_us\":\(Self.micros(build.selfTime))"
            if let error = build.error { arguments += ",\"error\":\(Self.json(error))" }
            events.append(event(build.key.description, "build", build.start, build.end, lane(build), arguments))
            for wait in build.waits {
                let waiter = track(wait.thread, threadName(wait.thread, main: wait.isMainThread))
                let arguments = "\"built_by\":\(Self.json(threadName(build.thread, main: build.isMainThread)))"
                events.append(event("wait for \(build.key)", "wait", wait.start, wait.end, waiter, arguments))
            }
        }
        for (index, track) in tracks.enumerated() {
            events.append(
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":\(index + 1),\"args\":{\"name\":\(Self.json(track.name))}}"
            )
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    func event(_ name: String, _ category: String, _ from: UInt64, _ to: UInt64, _ track: Int, _ arguments: String) -> String {
        let timing = "\"ts\":\(Self.micros(from - min(from, start))),\"dur\":\(Self.micros(to - from))"
        return
            "{\"name\":\(Self.json(name)),\"cat\":\"\(category)\",\"ph\":\"X\",\(timing),\"pid\":1,\"tid\":\(track),\"args\":{\(arguments)}}"
    }

    /// Nanoseconds as microseconds with three decimals.
    static func micros(_ nanoseconds: UInt64) -> String {
        let fraction = String(nanoseconds % 1000)
        return "\(nanoseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `12 µs`, `3.4 ms`, `1.25 s`.
    static func time(_ nanoseconds: UInt64) -> String {
        func decimals(_ value: UInt64, _ unit: UInt64, _ places: Int) -> String {
            let scale: UInt64 = places == 1 ? 10 : 100
            let scaled = (value * scale + unit / 2) / unit
            let fraction = String(scaled % scale)
            return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        if nanoseconds < 1_000_000 { return "\((nanoseconds + 500) / 1000) µs" }
        if nanoseconds < 1_000_000_000 { return decimals(nanoseconds, 1_000_000, 1) + " ms" }
        return decimals(nanoseconds, 1_000_000_000, 2) + " s"
    }

    static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + padding : padding + text
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
#endif
