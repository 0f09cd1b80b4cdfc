import FactoryCore

/// What every model-based test factory builds: the closure that built it, the
/// parameter it got and a serial number unique to the run.
public final class ModelValue: Sendable {
    /// Which closure built this value.
    public let closure: Int
    /// The parameter the closure received.
    public let parameter: Int
    /// Unique within a run, so two resolutions can be told apart.
    public let serial: Int

    /// Records `closure` and `parameter` and takes the next serial number.
    public init(closure: Int, parameter: Int, serials: Counter) {
        self.closure = closure
        self.parameter = parameter
        serial = serials.increment()
    }
}

/// The containers of the model-based tests.
public protocol ModelContaining: ManagedContainer {
    /// Numbers every value built through this container's factories.
    var serials: Counter { get }
}

/// A model container. Two types with the same factory names, so keys colliding
/// across container types would show; two instances of one type share singletons.
public final class ModelContainer: ModelContaining {
    /// Registrations and caches of this instance.
    public let manager = ContainerManager()
    /// Numbers every value built through this container's factories.
    public let serials: Counter
    /// Creates a container numbering its values with `serials`.
    public init(serials: Counter) { self.serials = serials }
}

/// The second model container type; see ``ModelContainer``.
public final class OtherModelContainer: ModelContaining {
    /// Registrations and caches of this instance.
    public let manager = ContainerManager()
    /// Numbers every value built through this container's factories.
    public let serials: Counter
    /// Creates a container numbering its values with `serials`.
    public init(serials: Counter) { self.serials = serials }
}
