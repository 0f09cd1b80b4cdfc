import FactoryKit
import FactoryProfiling
import SharedClock

/// What FeatureA's code sees of the library.
public enum FeatureA {
    /// The `Container.shared` this library's code resolves from.
    public static var container: ObjectIdentifier {
        ObjectIdentifier(Container.shared)
    }

    /// The clock singleton, resolved from this library's code.
    public static var clock: Clock {
        Container.shared.clock()
    }

    /// Registers a mock clock, as a feature's set-up (or a test) would.
    public static func registerMockClock() {
        Container.shared.clock.register { Clock(label: "mock from FeatureA") }
    }

    /// The factory builds a profile recorded from this library's code saw while `body` ran.
    public static func recordedBuilds(_ body: () -> Void) -> Int {
        FactoryProfile.record(body).builds.count
    }
}
