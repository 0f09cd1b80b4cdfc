/// A property wrapper type that instantiates an observable object.
///
/// SwiftUI calls the initial value's closure once per view identity, when it
/// installs the view; the stand-in calls it on the first read of the value, once
/// per view value.
@MainActor @frozen @propertyWrapper @preconcurrency
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    @usableFromInline
    nonisolated let storage: StateObjectStorage<ObjectType>

    /// Creates a new state object with an initial wrapped value.
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {
        storage = StateObjectStorage(thunk)
    }

    /// The underlying value referenced by the state object.
    @MainActor @preconcurrency
    public var wrappedValue: ObjectType {
        storage.object
    }

    /// A projection of the state object that creates bindings to its properties.
    @MainActor @preconcurrency
    public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        ObservedObject(wrappedValue: storage.object).projectedValue
    }
}

// Read only on the main actor (StateObject's wrappedValue).
@usableFromInline
final class StateObjectStorage<ObjectType>: @unchecked Sendable {
    private var made: ObjectType?
    private let make: () -> ObjectType

    init(_ make: @escaping () -> ObjectType) {
        self.make = make
    }

    var object: ObjectType {
        if let made { return made }
        let object = make()
        made = object
        return object
    }
}
