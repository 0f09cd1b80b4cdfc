/// The default container. Extend it with factories:
///
/// ```swift
/// extension Container {
///     var api: Factory<any APIClient> { self { LiveAPIClient() }.singleton }
/// }
/// let api = Container.shared.api()
/// ```
///
/// ``shared`` is task-local, so a test or a server request can work with a
/// container of its own for a scope of work:
///
/// ```swift
/// await Container.$shared.withValue(Container()) {
///     await handle(request)   // Container.shared is the fresh container here
/// }
/// ```
public final class Container: SharedContainer {
    /// The container used by `resolve(\.x)` and the property wrappers. Task-local:
    /// bind another instance with `Container.$shared.withValue(_:operation:)`.
    @TaskLocal public static var shared = Container()

    /// Registrations, caches and options of this instance.
    public let manager: ContainerManager

    /// Creates an empty container with no registrations and empty caches.
    public init() {
        manager = ContainerManager()
    }
}
