import CFactoryAtomics

#if SwiftConcurrency

/// Every factory build of a span of code: which factories a launch (or a request, or a test's set-up) built, in what
/// order, on which thread, inside which other build, and where the time went.
///
/// Record a span with ``record(containers:_:)-3is22`` (or its async form), or one that spans several
/// call sites with ``start(containers:)`` and ``Recording/stop()``:
///
/// ```swift
/// let profile = FactoryProfile.record {
///     _ = Container.shared.app()
/// }
/// print(profile.summary)  // the slowest factory first
/// print(profile.tree)     // who built what
/// try profile.chromeTrace().write(to: url, atomically: true, encoding: .utf8)  // with Foundation: for Perfetto
/// ```
///
/// A build is a run of a factory's closure: a cache hit is not one, and a resolution that waited for another thread's
/// or task's build is recorded as a ``Wait`` on that build. Recording is off unless a recording runs, and then costs
/// only the containers it includes: each of their resolutions takes the general path (Benchmarks/README.md says what
/// a recorded build costs). Several recordings may run at once, from any threads. Events are kept in memory until
/// the last running recording stops: record a launch, not a server's whole life.
///
/// On Apple platforms (macOS 12, iOS 15, tvOS 15, watchOS 8 and later) each recorded build is also an `OSSignposter`
/// interval named "build" (subsystem "Factory", category "Builds"), so Instruments shows it.
public struct FactoryProfile: Sendable, CustomStringConvertible {
    /// A factory's kind.
    public enum Kind: String, Sendable {
        /// A ``Factory``.
        case factory = "Factory"
        /// A ``ParameterFactory``.
        case parameterFactory = "ParameterFactory"
        /// An ``AsyncFactory``.
        case asyncFactory = "AsyncFactory"
        /// An ``AsyncParameterFactory``.
        case asyncParameterFactory = "AsyncParameterFactory"
    }

    /// Which closure a build ran: the factory's definition, a `register`ed one, or a context override (`onTest`, ...);
    /// the trace's `F`, `R` and `O`.
    public enum Source: String, Sendable {
        /// The closure the factory was declared with.
        case definition
        /// A closure given to `register`.
        case registration
        /// A context override's closure (`onTest`, `onDebug`, `onArg`, ...).
        case override

        init(code: UInt8) {
            self = code == UInt8(ascii: "R") ? .registration : code == UInt8(ascii: "O") ? .override : .definition
        }
    }

    /// ``Kind`` of a recorded event.
    private static func kind(_ event: BuildLog.Event) -> Kind {
        switch (event.isAsync, event.parameterless) {
        case (false, true): .factory
        case (false, false): .parameterFactory
        case (true, true): .asyncFactory
        case (true, false): .asyncParameterFactory
        }
    }

    /// A thread or task that waited for a build another one was running.
    public struct Wait: Sendable {
        /// The waiting thread's system identifier (where a task's wait began): on Linux its `gettid()`, on Apple
        /// platforms its `pthread_threadid_np`, as in ``Build/thread``.
        public let thread: UInt64
        /// Whether the waiter was the main thread.
        public let isMainThread: Bool
        /// Whether the waiter was a task (an async factory's resolution) rather than a blocked thread.
        public let isTask: Bool
        /// The monotonic clock's nanoseconds when the wait began and ended.
        public let start: UInt64, end: UInt64
        /// How long it waited, in nanoseconds.
        public var duration: UInt64 { end - start }
    }

    /// One build: one run of a factory's closure.
    public struct Build: Sendable, Identifiable {
        /// Its index in ``FactoryProfile/builds``, which are in start order.
        public let id: Int
        /// The factory: its container type, name and type.
        public let key: FactoryKey
        /// The factory's kind.
        public let kind: Kind
        /// The scope's name (`"unique"`, `"cached"`, `"singleton"`, ...).
        public let scope: String
        /// Which closure it ran.
        public let source: Source
        /// The monotonic clock's nanoseconds at the start and the end of the closure. A build still running when the
        /// recording stopped ends then.
        public let start: UInt64, end: UInt64
        /// The system identifier of the thread it ran on (an async factory's: where it started; its awaits may move
        /// it): on Linux the thread's `gettid()`, on Apple platforms its `pthread_threadid_np`.
        public let thread: UInt64
        /// Whether that thread was the main thread.
        public let isMainThread: Bool
        /// The build this one ran inside (its closure resolved this factory), if that one is in this profile.
        public let parent: Int?
        /// The builds that ran inside this one.
        public internal(set) var children: [Int] = []
        /// Threads and tasks that waited for this build.
        public internal(set) var waits: [Wait] = []
        /// What an async factory's closure threw.
        public let error: String?
        /// The closure's time in nanoseconds.
        public var duration: UInt64 { end - start }
        /// How long it waited, inside its closure, for other threads' or tasks' builds of what it resolved.
        public internal(set) var waiting: UInt64 = 0
        /// ``duration`` less that of the builds inside it and ``waiting``: the time of its own closure's code (never
        /// below zero: async builds inside it may overlap).
        public internal(set) var selfTime: UInt64 = 0
    }

    /// The builds, in the order they started.
    public internal(set) var builds: [Build] = []
    /// The monotonic clock's nanoseconds when the recording started and stopped.
    public let start: UInt64, end: UInt64

    /// A recording that runs until ``stop()``: for a launch that spans several call sites.
    public final class Recording: Sendable {
        private let managers: [ContainerManager]?
        private let first: Int
        private let started: UInt64
        private let profile = LockedBox<FactoryProfile?>(nil)

        fileprivate init(_ managers: [ContainerManager]?) {
            self.managers = managers
            started = cfactory_monotonic_ns()
            first = BuildLog.shared.start(managers)
        }

        /// Stops recording and returns the profile; a later call returns the same one.
        public func stop() -> FactoryProfile {
            profile.withLock { profile in
                if let profile { return profile }
                let events = BuildLog.shared.stop(managers, from: first)
                let made = FactoryProfile(events, first: first, managers: managers, start: started, end: cfactory_monotonic_ns())
                profile = made
                return made
            }
        }

        deinit { _ = stop() }
    }

    /// Starts recording the builds of `containers` (`nil`: of every container, those made later included).
    public static func start(containers: [any ManagedContainer]? = nil) -> Recording {
        Recording(containers?.map(\.manager))
    }

    /// Records the builds of `containers` (`nil`: of every container) while `body` runs.
    public static func record(containers: [any ManagedContainer]? = nil, _ body: () throws -> Void) rethrows -> FactoryProfile {
        let recording = start(containers: containers)
        defer { _ = recording.stop() }
        try body()
        return recording.stop()
    }

    /// Records the builds of `containers` (`nil`: of every container) while `body` runs, with its awaits.
    nonisolated(nonsending) public static func record(
        containers: [any ManagedContainer]? = nil, _ body: () async throws -> Void
    ) async rethrows -> FactoryProfile {
        let recording = start(containers: containers)
        defer { _ = recording.stop() }
        try await body()
        return recording.stop()
    }

    /// ``summary``.
    public var description: String { summary }
}

extension FactoryProfile {
    /// Builds from the recorder's events since `first`: only `managers`' (`nil`: all), each one's parent the nearest
    /// kept build it ran inside, and each wait given to the last build of its factory that overlaps it.
    fileprivate init(
        _ events: [BuildLog.Event], first: Int, managers: [ContainerManager]?, start: UInt64, end: UInt64
    ) {
        self.start = start
        self.end = end
        // Arrays, not sets and dictionaries: each of those would be compiled into every app for this type alone.
        let ids = managers?.map(ObjectIdentifier.init)
        var local = [Int](repeating: -1, count: events.count)  // each event's build id
        var owners: [ObjectIdentifier] = []  // each build's manager
        func kept(_ parent: Int?) -> Int? {
            var parent = parent
            while let index = parent, index >= first {
                if local[index - first] >= 0 { return local[index - first] }
                parent = events[index - first].parent
            }
            return nil
        }
        for (offset, event) in events.enumerated() where !event.isWait && event.isBuild {
            guard ids?.contains(event.manager) ?? true else { continue }
            let id = builds.count
            local[offset] = id
            owners.append(event.manager)
            builds.append(
                Build(
                    id: id, key: event.key, kind: Self.kind(event), scope: event.scope, source: Source(code: event.code),
                    start: event.start,
                    end: event.end == 0 ? max(end, event.start) : event.end, thread: event.thread,
                    isMainThread: event.isMainThread, parent: kept(event.parent), error: event.error))
            if let parent = builds[id].parent { builds[parent].children.append(id) }
        }
        for event in events where event.isWait && (ids?.contains(event.manager) ?? true) {
            // The build it overlaps: a waiter may find the claim a moment before the builder's event starts, and the
            // builder ends its event before it wakes its waiters.
            let waitEnd = event.end == 0 ? end : event.end
            let builder = builds.lastIndex {
                $0.key == event.key && owners[$0.id] == event.manager && $0.start <= waitEnd && $0.end >= event.start
            }
            guard let builder else { continue }
            let wait = Wait(
                thread: event.thread, isMainThread: event.isMainThread, isTask: event.byTask, start: event.start,
                end: waitEnd)
            builds[builder].waits.append(wait)
            if let waiter = kept(event.parent) { builds[waiter].waiting += wait.duration }
        }
        for id in builds.indices {
            let inside = builds[id].children.reduce(builds[id].waiting) { $0 + builds[$1].duration }
            builds[id].selfTime = builds[id].duration > inside ? builds[id].duration - inside : 0
        }
    }
}
#endif
