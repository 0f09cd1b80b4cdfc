/// A container: an object whose computed properties define factories, and whose
/// ``manager`` keeps their registrations and caches.
///
/// ```swift
/// extension Container {
///     var service: Factory<any ServiceType> { self { Service() } }
/// }
/// ```
///
/// Each container instance has its own registrations and scope caches; two
/// instances of the same container type never see each other's overrides.
public protocol ManagedContainer: AnyObject, Sendable {
    /// Registrations, scope caches and options of this container.
    var manager: ContainerManager { get }
}

/// A container type with one well-known instance, used by the global
/// `resolve(_:)` helpers and the property wrappers.
///
/// ```swift
/// final class OrderContainer: SharedContainer {
///     static let shared = OrderContainer()
///     let manager = ContainerManager()
/// }
/// ```
public protocol SharedContainer: ManagedContainer {
    /// The instance used when no container is passed explicitly.
    static var shared: Self { get }
}

/// A container that sets up registrations once, before its first resolution or registration.
///
/// `autoRegister()` runs exactly once per container instance, on the first thread
/// that touches the container; other threads wait for it. Registrations it makes
/// are ordinary registrations: `reset` removes them and they are not made again.
public protocol AutoRegistering: ManagedContainer {
    /// Registers what this container needs at start-up.
    func autoRegister()
}
