#if canImport(SwiftUI) && canImport(Combine)
import Combine
import SwiftUI

/// Resolves an `ObservableObject` for a SwiftUI view and keeps it as the view's
/// state object, so changes to it update the view.
///
/// ```swift
/// struct ContentView: View {
///     @InjectedObject(\.contentViewModel) var model
///     var body: some View { Text(model.title) }
/// }
/// extension Container {
///     var contentViewModel: Factory<ContentViewModel> { self { ContentViewModel() } }
/// }
/// ```
///
/// Like `@StateObject`, SwiftUI resolves the factory once per view identity, the
/// first time the view is installed, not on every re-creation of the view value.
/// The factory and its container are chosen when the view value is created.
///
/// Apple platforms with SwiftUI only. CI compiles and tests it on Linux against
/// stand-ins of SwiftUI and Combine (`Tests/SwiftUIStandIns`).
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor
@propertyWrapper
public struct InjectedObject<T: ObservableObject>: DynamicProperty {
    @StateObject private var dependency: T

    /// Resolves `keyPath` on `Container.shared` when SwiftUI installs the view.
    ///
    /// - Parameter keyPath: A factory of ``Container``.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(factory: Container.shared[keyPath: keyPath])
    }

    /// Resolves `keyPath` on `C.shared` when SwiftUI installs the view.
    ///
    /// - Parameter keyPath: A factory of a shared container.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(factory: C.shared[keyPath: keyPath])
    }

    /// Uses `wrappedValue` instead of resolving, for previews and tests.
    ///
    /// - Parameter wrappedValue: The object to keep as the view's state object.
    public init(_ wrappedValue: @autoclosure @escaping () -> T) {
        _dependency = StateObject(wrappedValue: wrappedValue())
    }

    private init(factory: Factory<T>) {
        _dependency = StateObject(wrappedValue: factory.resolve())
    }

    /// The resolved object.
    public var wrappedValue: T {
        dependency
    }

    /// Bindings to the object's properties: `$model.title`.
    public var projectedValue: ObservedObject<T>.Wrapper {
        $dependency
    }
}
#endif
