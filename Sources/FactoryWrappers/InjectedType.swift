/// Resolves a dependency by type, from a container in type-based mode, when the
/// enclosing object is created.
///
/// The container must conform to ``Resolving`` and have a registration for the
/// exact type `T`:
///
/// ```swift
/// extension Container: Resolving {}
/// Container.shared.register { NetworkService() as any NetworkServiceType }
///
/// final class ViewModel {
///     @InjectedType var network: (any NetworkServiceType)?
/// }
/// ```
///
/// The property is `nil` when the container does not conform to ``Resolving`` or
/// nothing is registered for `T` — registrations are keyed by the exact type, so
/// registering `NetworkService` does not make `any NetworkServiceType` resolvable.
/// Like ``Injected`` it resolves once, in its initializer; later registrations do
/// not change it.
///
/// Thread safety and isolation: a plain value, `Sendable` when `T` is; reads take
/// no lock. For non-isolated `Sendable` classes, write
/// `let network: (any NetworkServiceType)? = Container.shared.resolve()` instead.
@propertyWrapper
public struct InjectedType<T> {
    private var dependency: T?

    /// Resolves `T` from `Container.shared` now.
    public init() {
        self.init(Container.shared)
    }

    /// Resolves `T` from `container` now.
    ///
    /// - Parameter container: Any container; one that does not conform to
    ///   ``Resolving`` gives `nil`.
    public init(_ container: any ManagedContainer) {
        dependency = (container as? any Resolving)?.resolve(T.self)
    }

    /// The resolved dependency, or `nil` when nothing could be resolved. Assigning
    /// replaces it for this property only.
    public var wrappedValue: T? {
        get { dependency }
        set { dependency = newValue }
    }
}

extension InjectedType: Sendable where T: Sendable {}
