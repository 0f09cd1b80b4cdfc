import FactoryKit
import SharedClock

/// What FeatureB's code sees of the library.
public enum FeatureB {
    /// The `Container.shared` this library's code resolves from.
    public static var container: ObjectIdentifier {
        ObjectIdentifier(Container.shared)
    }

    /// The clock singleton, resolved from this library's code.
    public static var clock: Clock {
        Container.shared.clock()
    }
}
