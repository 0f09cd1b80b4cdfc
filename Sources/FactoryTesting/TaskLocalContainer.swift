/// A shared container whose `shared` instance is task-local, so
/// each test — or each server request — can work with a fresh instance of its own.
///
/// `Container` conforms. Declare a custom container this way when tests that
/// register mocks in it should run in parallel:
///
/// ```swift
/// final class OrderContainer: SharedContainer, TaskLocalContainer {
///     @TaskLocal static var shared = OrderContainer()
///     static var sharedTaskLocal: TaskLocal<OrderContainer> { $shared }
///     let manager = ContainerManager()
/// }
///
/// @Test(.container(OrderContainer.self) { $0.checkout.register { MockCheckout() } })
/// func checkoutUsesTheMock() { ... }
/// ```
///
/// The `.container(_:_:)` trait binds a new instance as `shared`
/// for each test case. A container declared with `static let shared` cannot be
/// swapped; the trait still works for it, but by snapshot and restore, one test at
/// a time (see <doc:WritingTests>).
public protocol TaskLocalContainer: SharedContainer {
    /// The task-local that backs `shared`; implement it as `{ $shared }`.
    static var sharedTaskLocal: TaskLocal<Self> { get }

    /// Creates an empty container: no registrations, empty caches.
    ///
    /// A container created inside a FactoryTesting scope keeps its singletons in
    /// that scope's storage, not the process's.
    init()
}

extension Container: TaskLocalContainer {
    /// `Container.$shared`: the task-local behind `Container.shared`.
    public static var sharedTaskLocal: TaskLocal<Container> { $shared }
}
