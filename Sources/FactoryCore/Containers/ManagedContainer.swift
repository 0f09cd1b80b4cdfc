/// A container: an object whose computed properties define factories, and whose ``manager`` keeps
/// their registrations and caches.
///
/// ```swift
/// extension Container {
///     var service: Factory<any ServiceType> { self { Service() } }
/// }
/// ```
///
/// Each container instance has its own registrations and scope caches; two instances of the same
/// container type never see each other's overrides.
public protocol ManagedContainer: AnyObject, Sendable {
    /// Registrations, scope caches and options of this container.
    var manager: ContainerManager { get }
}

/// A container type with one well-known instance, used by the global `resolve(_:)` helpers and the property wrappers.
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

/// Something that registers factories at start-up; a container that adopts it has ``autoRegister()``
/// called before its first resolution or registration.
///
/// As in Factory, a plain protocol: a container adopts it
/// (`extension Container: AutoRegistering { public func autoRegister() { ... } }`), and so can any other type,
/// such as a registrar per feature module that the container's `autoRegister()` calls. Only a container's own
/// conformance is called by the library.
///
/// It runs once per container instance, on the first thread that touches the container; other threads wait for it, and
/// registrations it makes on its own thread do not run it again. A reset of registrations (`manager.reset()`,
/// `reset(options: .registration)`) or a `pop()` to before it ran makes it run again on next use, as in Factory.
///
/// Registrations made while it runs, a registrar's included, describe the container type rather than
/// one instance: they do not drop cached instances, and a singleton they build is shared by every
/// container of the type (see ``ContainerManager``).
public protocol AutoRegistering {
    /// Registers factories: called once before the container is first used, and again after a reset of registrations.
    func autoRegister()
}
