/// A type that publishes a property marked with an attribute.
///
/// As in Combine, the property is read and written through the enclosing object,
/// and a write makes the object's `objectWillChange` publisher send first.
@propertyWrapper
public struct Published<Value> {
    private var value: Value

    /// Creates the published instance with an initial wrapped value.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) {
        value = initialValue
    }

    /// Unavailable: `@Published` is only available on properties of classes.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// Reads and writes the property through its enclosing object.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].value }
        set {
            if let observable = object as? any ObservableObject {
                sendWillChange(observable)
            }
            object[keyPath: storageKeyPath].value = newValue
        }
    }

    private static func sendWillChange<Object: ObservableObject>(_ object: Object) {
        (object.objectWillChange as? ObservableObjectPublisher)?.send()
    }
}
