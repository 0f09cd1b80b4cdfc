import CFactoryAtomics

/// What keeps a `FactoryProfile` recording's events: module FactoryProfiling's, installed (``ProfileRecorder/installed``)
/// before its first recording sets a flag or a count that leads a build here. Called with no library lock held.
package protocol BuildRecorder: Sendable {
    /// A build of `registration` begins on this thread or task, inside the event `parent`; with `waitByTask` set, a
    /// wait of a task (`true`) or a blocked thread (`false`) for another's build of it begins instead. Returns the
    /// event's index.
    func begin(
        _ registration: FactoryRegistration, scope: Scope?, code: UInt8, async: Bool, parameterless: Bool,
        waitByTask: Bool?, parent: Int?
    ) -> Int

    /// The event at `index` ended: `built` false when an async resolution found or joined an instance instead (no
    /// build), `error` what an async factory's closure threw.
    func end(_ index: Int, built: Bool, error: (any Error)?)
}

/// The engine's side of a recording. A recording of some containers sets their ``ContainerManager/Flag/profile`` bit,
/// which sends every resolution of theirs down the general path, where a build begins and ends in one place; one of
/// every container counts itself in `cfactory_profile_everywhere`, which a build checks where it starts (the general
/// path's beginning, and the direct build of an uncached factory, which it sends there). With no recording, a build
/// pays a bit test and a load.
package enum ProfileRecorder {
    /// Set once, never cleared: a recorder outlives every recording.
    package static let installed = LockedBox<(any BuildRecorder)?>(nil)

    /// A resolution's build event, while it runs.
    package struct Mark {
        let index: Int
        /// An async resolution's event stays a build only once it starts a build.
        var built: Bool
    }

    /// A build begins on this thread (or task), inside `parent`.
    static func begin(
        _ registration: FactoryRegistration, _ options: ResolvedOptions, async: Bool, parameterless: Bool, parent: Int?,
        built: Bool
    ) -> Mark? {
        guard let recorder = installed.withLock({ $0 }) else { return nil }
        let index = recorder.begin(
            registration, scope: options.scope, code: options.code, async: async, parameterless: parameterless,
            waitByTask: nil, parent: parent)
        return Mark(index: index, built: built)
    }

    /// A thread or task starts waiting for another's build of `registration`; ``end(_:error:)`` ends the wait.
    static func beginWait(_ registration: FactoryRegistration, byTask: Bool, parent: Int?) -> Mark? {
        guard let recorder = installed.withLock({ $0 }) else { return nil }
        let index = recorder.begin(
            registration, scope: nil, code: UInt8(ascii: "F"), async: false, parameterless: true, waitByTask: byTask,
            parent: parent)
        return Mark(index: index, built: true)
    }

    static func end(_ mark: Mark, error: (any Error)? = nil) {
        installed.withLock { $0 }?.end(mark.index, built: mark.built, error: error)
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

extension AsyncChain {
    /// The innermost recorded build of this task's resolutions.
    var profileParent: Int? { sequence(first: self, next: \.parent).lazy.compactMap(\.profile).first }
}

extension ContainerManager {
    /// A recording of this container starts (`1`) or stops (`-1`).
    package func countProfile(_ delta: Int) {
        lock.withLock {
            state.profiled += delta
            publishFlags()
        }
    }
}
