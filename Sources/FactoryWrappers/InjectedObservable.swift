#if canImport(SwiftUI) && canImport(Observation)
import Observation
import SwiftUI

/// Resolves an `@Observable` object for a SwiftUI view and keeps it in the view's
/// state, so the view updates when the properties it reads change.
///
/// ```swift
/// struct ContentView: View {
///     @InjectedObservable(\.contentViewModel) var model
///     var body: some View { TextField("Name", text: $model.name) }
/// }
/// ```
///
/// The factory runs once per view identity, on the first read of the property;
/// view values that SwiftUI creates and throws away without installing them
/// never resolve. The factory and its container are chosen when the view value is
/// created.
///
/// Apple platforms with SwiftUI and Observation only. CI compiles and tests it on
/// Linux against stand-ins of SwiftUI (`Tests/SwiftUIStandIns`).
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@propertyWrapper
public struct InjectedObservable<T: Observable>: DynamicProperty {
    @State private var holder: ObservableHolder<T>

    /// Resolves `keyPath` on `Container.shared`, on the view's first read.
    ///
    /// - Parameter keyPath: A factory of ``Container``.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(factory: Container.shared[keyPath: keyPath])
    }

    /// Resolves `keyPath` on `C.shared`, on the view's first read.
    ///
    /// - Parameter keyPath: A factory of a shared container.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(factory: C.shared[keyPath: keyPath])
    }

    /// Uses `wrappedValue` instead of resolving, for previews and tests.
    ///
    /// - Parameter wrappedValue: Makes the object, on the view's first read.
    public init(_ wrappedValue: @autoclosure @escaping () -> T) {
        _holder = State(initialValue: ObservableHolder(make: wrappedValue))
    }

    private init(factory: Factory<T>) {
        _holder = State(initialValue: ObservableHolder(make: { factory.resolve() }))
    }

    /// The resolved object.
    public var wrappedValue: T {
        holder.value
    }

    /// A binding to the object, for bindings to its properties: `$model.name`.
    ///
    /// Writing the binding itself replaces the object the view keeps.
    public var projectedValue: Binding<T> {
        // SwiftUI's own binding to the state, not one made of closures: a closure
        // returning `T` would capture `T`'s metatype in a `@Sendable` closure.
        $holder.value
    }
}

/// Makes the object on first read, so only the holder SwiftUI keeps ever resolves.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
private final class ObservableHolder<T> {
    private var object: T?
    private let make: () -> T

    init(make: @escaping () -> T) {
        self.make = make
    }

    var value: T {
        get {
            if let object { return object }
            let made = make()
            object = made
            return made
        }
        set { object = newValue }
    }
}
#endif
