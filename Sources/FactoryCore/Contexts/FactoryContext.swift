#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the running process is (test run, preview, debug build, simulator, arguments present),
/// which chooses context overrides (`onTest`, `onArg`, ...) at each resolution.
///
/// ``current`` is detected once at first use and can be changed at run time (tests may set
/// `isPreview` or `isTest` to exercise a context).
///
/// ## Launch arguments in release builds
/// A command-line flag must not silently swap a real service for a mock in a shipped binary. Without
/// `DEBUG`, context matching ignores launch arguments and the preview environment unless the app opts
/// in with ``honorsLaunchOverridesInRelease``. Runtime arguments (``setArg(_:forKey:)``) always count.
public struct FactoryContext: Sendable {
    /// The process's launch arguments (`CommandLine.arguments`).
    public var arguments: [String]
    /// Runtime arguments, by key, added with ``setArg(_:forKey:)``.
    public var runtimeArguments: [String: String]
    /// Running inside an Xcode SwiftUI preview.
    public var isPreview: Bool
    /// Running under XCTest or Swift Testing, in Xcode or under `swift test`.
    public var isTest: Bool
    /// FactoryCore was compiled with `DEBUG` (the app's debug configuration).
    public var isDebug: Bool
    /// Running in a simulator.
    public var isSimulator: Bool

    /// The running process's context, detected now (arguments, test runner, preview, DEBUG, simulator).
    /// `FactoryContext.current = FactoryContext()` undoes a test's changes to ``current``, runtime arguments included.
    public init() { self = Self.detect() }

    /// Creates a context with the given values; ``current`` is the one resolution uses.
    public init(
        arguments: [String], runtimeArguments: [String: String] = [:], isPreview: Bool = false, isTest: Bool = false,
        isDebug: Bool = false, isSimulator: Bool = false
    ) {
        self.arguments = arguments
        self.runtimeArguments = runtimeArguments
        self.isPreview = isPreview
        self.isTest = isTest
        self.isDebug = isDebug
        self.isSimulator = isSimulator
    }

    private struct Global: Sendable {
        var context: FactoryContext
        var honorsLaunchOverridesInRelease = false
    }

    /// The writers' copy; each change publishes an immutable snapshot readers load lock-free.
    private static let global = LockedBox(Global(context: .detect()))
    // Its own detection, never `global`'s: its lazy set-up must not wait for the lock `update` holds.
    private static let published = OwnedAtomicReference(Snapshot(Global(context: .detect())))

    /// The published state, copied out inside a read section.
    private static var publishedValue: Global {
        let section = ReadSection.begin()
        defer { section.end() }
        return published.load()!.takeUnretainedValue().value
    }

    private final class Snapshot: Sendable {
        let value: Global
        init(_ value: Global) { self.value = value }
    }

    /// A struct around the closure so the optimizer does not specialize `update` per change.
    private struct GlobalChange {
        let apply: (inout Global) -> Void
    }

    /// The replaced snapshot is released once no reader can still use it.
    private static func update(_ change: GlobalChange) {
        var garbage = Garbage()
        // Touched before the lock: its lazy set-up must not run under it.
        _ = published.load()
        global.withLock { global in
            change.apply(&global)
            garbage.add(published.exchange(Snapshot(global)))
        }
        garbage.release()
    }

    /// The context of this process. Reading it takes no lock (resolution reads it for factories with
    /// context overrides); setting it takes a process-wide lock.
    public static var current: FactoryContext {
        get { publishedValue.context }
        set { update(GlobalChange { $0.context = newValue }) }
    }

    /// Opt-in for release builds: honour launch arguments (`onArg`, `onArgs`) and the preview environment (`onPreview`)
    /// when matching contexts. Off by default, so nobody can swap a service for a mock in a shipped binary by passing a
    /// flag; no effect in DEBUG builds, which always honour them. Set it once at launch, before the first resolution.
    public static var honorsLaunchOverridesInRelease: Bool {
        get { publishedValue.honorsLaunchOverridesInRelease }
        set { update(GlobalChange { $0.honorsLaunchOverridesInRelease = newValue }) }
    }

    /// Adds a runtime argument that `onArg(_:)` matches, as if it had been passed at launch.
    public static func setArg(_ argument: String, forKey key: String) {
        update(GlobalChange { $0.context.runtimeArguments[key] = argument })
    }

    /// Removes the runtime argument stored under `key`.
    public static func removeArg(forKey key: String) {
        update(GlobalChange { _ = $0.context.runtimeArguments.removeValue(forKey: key) })
    }

    /// Both from one snapshot: what a resolution matches context overrides against.
    package static var matching: (context: FactoryContext, honorsLaunchOverridesInRelease: Bool) {
        let global = publishedValue
        return (global.context, global.honorsLaunchOverridesInRelease)
    }

    /// A runtime argument (key or value), or a launch argument when DEBUG or honoured in release.
    /// The switch is a parameter so a caller decides with one snapshot (``matching``).
    package func hasArgument(_ argument: String, honorsLaunchOverridesInRelease: Bool) -> Bool {
        if runtimeArguments[argument] != nil || runtimeArguments.values.contains(argument) {
            return true
        }
        guard isDebug || honorsLaunchOverridesInRelease else { return false }
        return arguments.contains(argument)
    }

    package static func detect() -> FactoryContext {
        let arguments = CommandLine.arguments
        #if DEBUG
        let isDebug = true
        #else
        let isDebug = false
        #endif
        #if targetEnvironment(simulator)
        let isSimulator = true
        #else
        let isSimulator = false
        #endif
        return FactoryContext(
            arguments: arguments, isPreview: environment("XCODE_RUNNING_FOR_PREVIEWS") == "1",
            isTest: detectTestRun(arguments: arguments), isDebug: isDebug, isSimulator: isSimulator)
    }

    /// True under XCTest or Swift Testing: Xcode sets XCTest variables, `swift test`
    /// runs a `.xctest` bundle or binary, and Swift Testing exports its entry point.
    private static func detectTestRun(arguments: [String]) -> Bool {
        let variables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        if variables.contains(where: { environment($0) != nil }) { return true }
        if let executable = arguments.first {
            let name = executable.split(separator: "/").last.map(String.init) ?? executable
            if name.hasSuffix(".xctest") || name == "xctest" || name.hasSuffix("PackageTests") { return true }
        }
        if arguments.contains("--testing-library") { return true }
        return symbolLoaded("swt_abiv0_getEntryPoint")
    }

    private static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    private static func symbolLoaded(_ name: String) -> Bool {
        #if canImport(Darwin)
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(handle, name) != nil
    }
}
