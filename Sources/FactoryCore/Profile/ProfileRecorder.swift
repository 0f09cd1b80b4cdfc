import CFactoryAtomics

/// What keeps a `FactoryProfile` recording's events: module FactoryProfiling's, installed once
/// (``ProfileRecorder/install(_:)``) before its first recording sets a flag or a count that leads a build here. Called
/// with no library lock held.
package final class BuildRecorder: Sendable {
    /// A build of the registration begins on this thread or task, inside the event `parent`; with `waitByTask` set, a
    /// wait of a task (`true`) or a blocked thread (`false`) for another's build of it begins instead. Returns the
    /// event's index.
    let begin:
        @Sendable (
            _ registration: FactoryRegistration, _ scope: Scope?, _ code: UInt8, _ async: Bool, _ parameterless: Bool,
            _ waitByTask: Bool?, _ parent: Int?
        ) -> Int
    /// The event at the index ended: `built` false when an async resolution found or joined an instance instead (no
    /// build); the error is what an async factory's closure threw.
    let end: @Sendable (_ index: Int, _ built: Bool, _ error: (any Error)?) -> Void

    package init(
        begin: @escaping @Sendable (FactoryRegistration, Scope?, UInt8, Bool, Bool, Bool?, Int?) -> Int,
        end: @escaping @Sendable (Int, Bool, (any Error)?) -> Void
    ) {
        self.begin = begin
        self.end = end
    }
}

/// The engine's side of a recording. A recording of some containers sets their ``ContainerManager/Flag/profile`` bit,
/// which sends every resolution of theirs down the general path, where a build begins and ends in one place; one of
/// every container counts itself in `cfactory_profile_everywhere`, which a build checks where it starts (the general
/// path's beginning, and the direct build of an uncached factory, which it sends there). With no recording, a build
/// pays a bit test and a load.
package enum ProfileRecorder {
    /// Published once and never replaced or released, so an unretained load stays valid without a read section.
    private static let installed = OwnedAtomicReference<BuildRecorder>()

    /// Installs `recorder` unless one is installed; every recording after the first changes nothing.
    package static func install(_ recorder: @autoclosure () -> BuildRecorder) {
        if installed.load() == nil { _ = installed.publishOnce(recorder()) }
    }

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
        guard let recorder = installed.load() else { return nil }
        let index = recorder._withUnsafeGuaranteedRef {
            $0.begin(registration, options.scope, options.code, async, parameterless, nil, parent)
        }
        return Mark(index: index, built: built)
    }

    /// A thread or task starts waiting for another's build of `registration`; ``end(_:error:)`` ends the wait.
    static func beginWait(_ registration: FactoryRegistration, byTask: Bool, parent: Int?) -> Mark? {
        guard let recorder = installed.load() else { return nil }
        let index = recorder._withUnsafeGuaranteedRef {
            $0.begin(registration, nil, UInt8(ascii: "F"), false, true, byTask, parent)
        }
        return Mark(index: index, built: true)
    }

    static func end(_ mark: Mark, error: (any Error)? = nil) {
        installed.load()?._withUnsafeGuaranteedRef { $0.end(mark.index, mark.built, error) }
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
