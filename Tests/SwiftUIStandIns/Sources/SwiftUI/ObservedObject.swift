/// A property wrapper type that subscribes to an observable object and invalidates
/// a view whenever the observable object changes.
@MainActor @propertyWrapper @frozen @preconcurrency
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    /// A wrapper of the underlying observable object that can create bindings to its properties.
    @MainActor @dynamicMemberLookup @frozen @preconcurrency
    public struct Wrapper {
        let root: ObjectType

        /// Gets a binding to the value of a specified key path.
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let root = root
            return Binding(access: BindingAccess(get: { root[keyPath: keyPath] }, set: { root[keyPath: keyPath] = $0 }))
        }
    }

    /// The underlying value that the observed object references.
    @MainActor @preconcurrency
    public var wrappedValue: ObjectType

    /// Creates an observed object with an initial wrapped value.
    @MainActor @preconcurrency
    public init(wrappedValue: ObjectType) {
        self.wrappedValue = wrappedValue
    }

    /// Creates an observed object with an initial value.
    @MainActor @preconcurrency
    public init(initialValue: ObjectType) {
        self.wrappedValue = initialValue
    }

    /// A projection of the observed object that creates bindings to its properties.
    @MainActor @preconcurrency
    public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        Wrapper(root: wrappedValue)
    }
}
