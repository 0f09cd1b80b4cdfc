/// A property wrapper type that can read and write a value managed by SwiftUI.
///
/// SwiftUI keeps the value in the view graph, once per view identity; the stand-in
/// keeps it in a box made with the view value, so it lives as long as that value.
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
    @usableFromInline
    let box: StateBox<Value>

    /// Creates a state property that stores an initial wrapped value.
    public init(wrappedValue value: Value) {
        box = StateBox(value)
    }

    /// Creates a state property that stores an initial value.
    public init(initialValue value: Value) {
        box = StateBox(value)
    }

    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// A binding to the state value.
    public var projectedValue: Binding<Value> {
        let box = box
        return Binding(access: BindingAccess(get: { box.value }, set: { box.value = $0 }))
    }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Creates a state property without an initial value.
    public init() {
        self.init(wrappedValue: nil)
    }
}

// Read and written only where SwiftUI would, on the main actor.
extension State: @unchecked Sendable where Value: Sendable {}

@usableFromInline
final class StateBox<Value> {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
