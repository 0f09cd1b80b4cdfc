import CFactoryAtomics

#if SwiftConcurrency
#if canImport(os)
import os
#endif

/// What a `FactoryProfile` recording (module FactoryProfiling) gathers while it runs: one event per build (and per wait
/// for another's build), appended in start order to one process-wide list that every running recording reads its part
/// of when it stops.
/// A recording of some containers sets their ``ContainerManager/Flag/profile`` bit, which sends every resolution of
/// theirs down the general path, where a build begins and ends in one place; one of every container counts itself in
/// `cfactory_profile_everywhere`, which a build checks where it starts (the general path's beginning, and the direct
/// build of an uncached factory, which it sends there). With no recording, a build pays a bit test and a load.
package enum ProfileRecorder {
    package struct Event: Sendable {
        package let key: FactoryKey
        package let manager: ObjectIdentifier
        /// The factory's kind: an `AsyncFactory` or `AsyncParameterFactory`, and one without a parameter.
        package let isAsync: Bool, parameterless: Bool
        package let scope: String
        package let code: UInt8  // the closure it ran, as the trace writes it: `F`, `R` or `O`
        package let start: UInt64
        package var end: UInt64 = 0
        package let thread: UInt64
        package let isMainThread: Bool
        package let parent: Int?  // an event index
        /// A wait for another thread's or task's build of `key`: the waiter's event, not a build.
        package let isWait: Bool
        package var byTask = false  // a wait of a task (an async resolution), not of a blocked thread
        package var error: String?
        package var isBuild = true  // false once an async resolution turned out to find or join, not build
    }

    struct State {
        var events: [Event] = []
        var first = 0  // the index of `events[0]`: the list is emptied when no recording runs
        var recordings = 0
        #if canImport(os)
        var intervals: [Int: AnyObject] = [:]
        #endif
    }

    static let state = LockedBox(State())

    /// A resolution's build event, while it runs.
    package struct Mark {
        let index: Int
        /// An async resolution's event stays a build only once it starts a build.
        var built: Bool
    }

    // MARK: Recordings

    /// Starts gathering for `managers` (`nil`: every container); returns the index its events start at.
    package static func start(_ managers: [ContainerManager]?) -> Int {
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
    package static func stop(_ managers: [ContainerManager]?, from first: Int) -> [Event] {
        if let managers {
            for manager in managers { manager.countProfile(-1) }
        } else {
            cfactory_profile_everywhere_add(-1)
        }
        let events = state.withLock { state -> [Event] in
            let events = Array(state.events[(first - state.first)...])
            state.recordings -= 1
            if state.recordings == 0 {
                state.first += state.events.count
                state.events.removeAll()
            }
            return events
        }
        return events
    }

    // MARK: Builds

    /// A build begins on this thread (or task), inside `parent`.
    static func begin(
        _ registration: FactoryRegistration, _ options: ResolvedOptions, async: Bool, parameterless: Bool, parent: Int?,
        built: Bool
    ) -> Mark {
        let event = Event(
            key: registration.key, manager: ObjectIdentifier(registration.manager), isAsync: async,
            parameterless: parameterless, scope: options.scope?.label ?? "unique", code: options.code,
            start: cfactory_monotonic_ns(), thread: cfactory_thread_id(), isMainThread: cfactory_is_main_actor(),
            parent: parent, isWait: false)
        let index = append(event)
        beginInterval(index, event.key)
        return Mark(index: index, built: built)
    }

    /// Its index in the process-wide list.
    private static func append(_ event: Event) -> Int {
        state.withLock { state in
            state.events.append(event)
            return state.first + state.events.count - 1
        }
    }

    /// The build ended (`error`: an async factory's closure threw); an async resolution that found or joined an
    /// instance (``Mark/built`` false) was no build, and is left out.
    static func end(_ mark: Mark, error: (any Error)? = nil) {
        let now = cfactory_monotonic_ns()
        let description = error.map { String(describing: $0) }
        state.withLock { state in
            let position = mark.index - state.first
            guard position >= 0 && position < state.events.count else { return }  // every recording stopped since
            state.events[position].end = now
            state.events[position].isBuild = mark.built
            state.events[position].error = description
        }
        endInterval(mark.index)
    }

    /// A thread or task starts waiting for another's build of `key`; ``end(_:error:)`` ends the wait.
    static func beginWait(_ registration: FactoryRegistration, byTask: Bool, parent: Int?) -> Mark {
        var event = Event(
            key: registration.key, manager: ObjectIdentifier(registration.manager), isAsync: false, parameterless: true,
            scope: "", code: UInt8(ascii: "F"), start: cfactory_monotonic_ns(), thread: cfactory_thread_id(),
            isMainThread: cfactory_is_main_actor(), parent: parent, isWait: true)
        event.byTask = byTask
        return Mark(index: append(event), built: true)
    }

    /// The innermost recorded build this thread's synchronous resolutions, then its task's, run inside.
    static func parent(on context: ResolutionContext?) -> Int? {
        if let context {
            var index = context.buildCount
            while index > 0 {
                index -= 1
                if let mark = context.builds[index].profile { return mark.index }
            }
        }
        return AsyncChain.current?.profileParent
    }
}

// MARK: - Signposts

extension ProfileRecorder {
    #if canImport(os)
    private static func beginInterval(_ index: Int, _ key: FactoryKey) {
        guard #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) else { return }
        let signposter = OSSignposter(subsystem: "Factory", category: "Builds")
        let interval = signposter.beginInterval("build", id: signposter.makeSignpostID(), "\(key.description, privacy: .public)")
        state.withLock { $0.intervals[index] = interval }
    }

    private static func endInterval(_ index: Int) {
        guard #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) else { return }
        guard let interval = state.withLock({ $0.intervals.removeValue(forKey: index) }) as? OSSignpostIntervalState
        else { return }
        OSSignposter(subsystem: "Factory", category: "Builds").endInterval("build", interval)
    }
    #else
    private static func beginInterval(_: Int, _: FactoryKey) {}
    private static func endInterval(_: Int) {}
    #endif
}

extension AsyncChain {
    /// The innermost recorded build of this task's resolutions.
    var profileParent: Int? { sequence(first: self, next: \.parent).lazy.compactMap(\.profile).first }
}

extension ContainerManager {
    /// A recording of this container starts (`1`) or stops (`-1`).
    func countProfile(_ delta: Int) {
        lock.withLock {
            state.profiled += delta
            publishFlags()
        }
    }
}
#else
/// Without the `SwiftConcurrency` trait nothing is recorded: no recording exists to set the flag or the count that lead
/// here, and these stubs keep the recorder out of the program.
package enum ProfileRecorder {
    package struct Mark {
        let index: Int
        var built: Bool
    }

    static func begin(
        _: FactoryRegistration, _: ResolvedOptions, async: Bool, parameterless: Bool, parent: Int?, built: Bool
    ) -> Mark? { nil }

    static func beginWait(_: FactoryRegistration, byTask: Bool, parent: Int?) -> Mark? { nil }

    static func end(_: Mark, error: (any Error)? = nil) {}

    static func parent(on _: ResolutionContext?) -> Int? { nil }
}

extension AsyncChain {
    var profileParent: Int? { nil }
}
#endif
