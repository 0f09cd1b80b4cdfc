/// A situation in which a context override replaces a factory's registration.
///
/// When several overrides apply, the first in this order wins: argument contexts,
/// then preview, test, simulator or device, debug.
public enum FactoryContextType: Hashable, Sendable {
    /// The launch arguments, or the runtime arguments set with
    /// ``FactoryContext/setArg(_:forKey:)``, contain this string.
    case arg(String)
    /// Any one of these strings is present as an argument.
    case args([String])
    /// Running inside an Xcode SwiftUI preview.
    case preview
    /// Running under a test runner (XCTest or Swift Testing, Xcode or `swift test`).
    case test
    /// A DEBUG build.
    case debug
    /// Running in the iOS/tvOS/watchOS simulator.
    case simulator
    /// Running on a device (not the simulator).
    case device

    /// Lower ranks win when several contexts match.
    package var rank: Int {
        switch self {
        case .arg, .args: return 0
        case .preview: return 1
        case .test: return 2
        case .simulator, .device: return 3
        case .debug: return 4
        }
    }

    /// A release build honours launch arguments and previews only if `honors`.
    package func matches(_ context: FactoryContext, honorsLaunchOverridesInRelease honors: Bool) -> Bool {
        switch self {
        case .arg(let argument):
            return context.hasArgument(argument, honorsLaunchOverridesInRelease: honors)
        case .args(let arguments):
            return arguments.contains { context.hasArgument($0, honorsLaunchOverridesInRelease: honors) }
        case .preview:
            return context.isPreview && (context.isDebug || honors)
        case .test:
            return context.isTest
        case .debug:
            return context.isDebug
        case .simulator:
            return context.isSimulator
        case .device:
            return !context.isSimulator
        }
    }
}
