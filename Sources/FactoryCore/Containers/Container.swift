/// The default container. Extend it with factories:
///
/// ```swift
/// extension Container {
///     var api: Factory<any APIClient> { self { LiveAPIClient() }.singleton }
/// }
/// let api = Container.shared.api()
/// ```
///
/// ``shared`` is task-local, so a test or a server request can use a container of its own:
///
/// ```swift
/// await Container.$shared.withValue(Container()) {
///     await handle(request)   // Container.shared is the fresh container here
/// }
/// ```
public final class Container: SharedContainer {
    #if SwiftConcurrency
    /// The container used by `resolve(\.x)` and the property wrappers. Task-local:
    /// bind another instance with `Container.$shared.withValue(_:operation:)`.
    @TaskLocal public static var shared = Container()
    #else
    /// The container used by `resolve(\.x)` and the property wrappers. Built without the package's
    /// `SwiftConcurrency` trait, a plain static behind a lock: assigning it replaces it for every thread.
    public static var shared: Container {
        get { sharedBox.withLock { $0 } }
        // The replaced container, and what it cached, is released here, unlocked.
        set { _ = sharedBox.exchange(newValue) }
    }
    private static let sharedBox = LockedBox(Container())
    #endif

    /// Registrations, caches and options of this instance.
    public let manager: ContainerManager

    /// Creates an empty container with no registrations and empty caches.
    public init() { manager = ContainerManager() }
}
