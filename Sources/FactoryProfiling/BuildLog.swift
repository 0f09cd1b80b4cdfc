import CFactoryAtomics

#if SwiftConcurrency
#if canImport(os)
import os
#endif

/// What FactoryCore's `BuildRecorder` records for every recording: one event per build (and per wait for another's
/// build), appended in start order to one process-wide list that every running recording reads its part of when it
/// stops.
final class BuildLog: Sendable {
    struct Event: Sendable {
        let key: FactoryKey
        let manager: ObjectIdentifier
        /// The factory's kind: an `AsyncFactory` or `AsyncParameterFactory`, and one without a parameter.
        let isAsync: Bool, parameterless: Bool
        let scope: String
        let code: UInt8  // the closure it ran, as the trace writes it: `F`, `R` or `O`
        let start: UInt64
        var end: UInt64 = 0
        let thread: UInt64
        let isMainThread: Bool
        let parent: Int?  // an event index
        /// A wait for another thread's or task's build of `key`: the waiter's event, not a build.
        let isWait: Bool
        let byTask: Bool  // a wait of a task (an async resolution), not of a blocked thread
        var error: String?
        var isBuild = true  // false once an async resolution turned out to find or join, not build
    }

    private struct State {
        var events: [Event] = []
        var first = 0  // the index of `events[0]`: the list is emptied when no recording runs
        var recordings = 0
        #if canImport(os)
        var intervals: [Int: AnyObject] = [:]
        #endif
    }

    static let shared = BuildLog()
    private let state = LockedBox(State())

    /// Starts gathering for `managers` (`nil`: every container); returns the index its events start at.
    func start(_ managers: [ContainerManager]?) -> Int {
        ProfileRecorder.install(BuildRecorder(begin: begin, end: end))
        let first = state.withLock { state -> Int in
            state.recordings += 1
            return state.first + state.events.count
        }
        if let managers {
            for manager in managers { manager.countProfile(1) }
        } else {
            cfactory_profile_everywhere_add(1)
        }
        return first
    }

    /// Stops one recording and returns every event since `first` (the recording picks its containers' own).
    func stop(_ managers: [ContainerManager]?, from first: Int) -> [Event] {
        if let managers {
            for manager in managers { manager.countProfile(-1) }
        } else {
            cfactory_profile_everywhere_add(-1)
        }
        return state.withLock { state -> [Event] in
            let events = Array(state.events[(first - state.first)...])
            state.recordings -= 1
            if state.recordings == 0 {
                state.first += state.events.count
                state.events.removeAll()
            }
            return events
        }
    }

    private func begin(
        _ registration: FactoryRegistration, scope: Scope?, code: UInt8, async: Bool, parameterless: Bool,
        waitByTask: Bool?, parent: Int?
    ) -> Int {
        let event = Event(
            key: registration.key, manager: ObjectIdentifier(registration.manager), isAsync: async,
            parameterless: parameterless, scope: waitByTask == nil ? scope?.label ?? "unique" : "", code: code,
            start: cfactory_monotonic_ns(), thread: cfactory_thread_id(), isMainThread: cfactory_is_main_actor(),
            parent: parent, isWait: waitByTask != nil, byTask: waitByTask ?? false)
        let index = state.withLock { state in
            state.events.append(event)
            return state.first + state.events.count - 1
        }
        if waitByTask == nil { beginInterval(index, event.key) }
        return index
    }

    private func end(_ index: Int, built: Bool, error: (any Error)?) {
        let now = cfactory_monotonic_ns()
        let description = error.map { String(describing: $0) }
        state.withLock { state in
            let position = index - state.first
            guard position >= 0 && position < state.events.count else { return }  // every recording stopped since
            state.events[position].end = now
            state.events[position].isBuild = built
            state.events[position].error = description
        }
        endInterval(index)
    }

    // MARK: Signposts

    #if canImport(os)
    private func beginInterval(_ index: Int, _ key: FactoryKey) {
        guard #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) else { return }
        let signposter = OSSignposter(subsystem: "Factory", category: "Builds")
        let interval = signposter.beginInterval("build", id: signposter.makeSignpostID(), "\(key.description, privacy: .public)")
        state.withLock { $0.intervals[index] = interval }
    }

    private func endInterval(_ index: Int) {
        guard #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) else { return }
        guard let interval = state.withLock({ $0.intervals.removeValue(forKey: index) }) as? OSSignpostIntervalState
        else { return }
        OSSignposter(subsystem: "Factory", category: "Builds").endInterval("build", interval)
    }
    #else
    private func beginInterval(_: Int, _: FactoryKey) {}
    private func endInterval(_: Int) {}
    #endif
}
#endif
