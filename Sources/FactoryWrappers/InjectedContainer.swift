/// Gives the enclosing object the container it was created with, for code that
/// resolves factories itself.
///
/// ```swift
/// final class Router {
///     @InjectedContainer var container: Container                 // Container.shared
///     @InjectedContainer(OrderContainer.self) var orders         // OrderContainer.shared
///
///     func checkout() -> CheckoutViewModel { container.checkoutViewModel() }
/// }
/// ```
///
/// The container is captured when the enclosing object is created: for
/// ``Container`` that is the task-local ``Container/shared`` of that moment, so an
/// object created inside `Container.$shared.withValue(testContainer) { ... }` keeps
/// `testContainer` even when used later outside that scope. With no argument and a
/// type annotation, the annotated container type's `shared` instance is used;
/// with neither, it is ``Container``.
///
/// Thread safety and isolation: containers are `Sendable`, and so is this wrapper.
/// For non-isolated `Sendable` classes, write `let container = Container.shared`
/// instead.
@propertyWrapper
public struct InjectedContainer<C: SharedContainer>: Sendable {
    private var container: C

    /// Captures `Container.shared` now: `@InjectedContainer var container`.
    public init() where C == Container {
        container = Container.shared
    }

    /// Captures `C.shared` now: `@InjectedContainer var orders: OrderContainer`.
    public init() {
        container = C.shared
    }

    /// Captures `C.shared` now: `@InjectedContainer(OrderContainer.self) var orders`.
    ///
    /// - Parameter type: The container type whose `shared` instance to use.
    public init(_ type: C.Type) {
        container = C.shared
    }

    /// The container. Assigning replaces it for this property only, for instance
    /// to hand a test container to an object.
    public var wrappedValue: C {
        get { container }
        set { container = newValue }
    }
}
