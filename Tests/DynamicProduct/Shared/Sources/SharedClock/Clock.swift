import FactoryKit

/// A service both features resolve; its label tells a registered mock from the real one.
public final class Clock: Sendable {
    /// "real", or what a mock says it is.
    public let label: String

    /// A clock labelled `label`.
    public init(label: String) {
        self.label = label
    }
}

extension Container {
    /// One clock for the whole process: a singleton.
    public var clock: Factory<Clock> {
        self { Clock(label: "real") }.singleton
    }
}
