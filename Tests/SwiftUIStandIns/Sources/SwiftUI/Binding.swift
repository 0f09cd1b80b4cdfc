/// A property wrapper type that can read and write a value owned by a source of truth.
///
/// The stand-in reads and writes a binding made from state it owns (`State`,
/// `ObservedObject`, `constant`) synchronously, as SwiftUI does. A binding made with
/// ``init(get:set:)`` takes `@isolated(any)` closures, which only SwiftUI's runtime
/// calls synchronously; the stand-in host reads and writes those with `await`, and
/// its synchronous ``wrappedValue`` stops with a message that says so.
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    @usableFromInline
    package let access: BindingAccess<Value>

    package init(access: BindingAccess<Value>) {
        self.access = access
    }

    /// Creates a binding with closures that read and write the binding value.
    @preconcurrency
    public init(
        get: @escaping @isolated(any) @Sendable () -> Value,
        set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {
        access = BindingAccess(read: { await get() }, write: { await set($0) })
    }

    /// Creates a binding with an immutable value.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(access: BindingAccess(get: { value }, set: { _ in }))
    }

    /// The underlying value referenced by the binding variable.
    public var wrappedValue: Value {
        get {
            guard let get = access.get else {
                fatalError("SwiftUI stand-in: a Binding made by init(get:set:) is read with the host's await read()")
            }
            return get()
        }
        nonmutating set {
            guard let set = access.set else {
                fatalError("SwiftUI stand-in: a Binding made by init(get:set:) is written with the host's await write(_:)")
            }
            set(newValue)
        }
    }

    /// A projection of the binding value that returns a binding.
    public var projectedValue: Binding<Value> {
        self
    }

    /// Creates a binding from the value of another binding.
    public init(projectedValue: Binding<Value>) {
        self = projectedValue
    }

    /// Returns a binding to the resulting value of a given key path.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(access: access.member(keyPath))
    }

    /// Reads the value, awaiting a binding made by ``init(get:set:)``.
    package func read() async -> Value {
        await access.read()
    }

    /// Writes the value, awaiting a binding made by ``init(get:set:)``.
    package func write(_ value: Value) async {
        await access.write(value)
    }
}

// The stand-in's closures are only called where SwiftUI would call them, on the main actor.
extension Binding: @unchecked Sendable where Value: Sendable {}

/// How the stand-in reads and writes a binding: synchronously where it owns the
/// state, and with `await` always.
@usableFromInline
package struct BindingAccess<Value> {
    package let get: (() -> Value)?
    package let set: ((Value) -> Void)?
    package let read: () async -> Value
    package let write: (Value) async -> Void

    package init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
        read = { get() }
        write = { set($0) }
    }

    package init(read: @escaping () async -> Value, write: @escaping (Value) async -> Void) {
        get = nil
        set = nil
        self.read = read
        self.write = write
    }

    /// Access to a member of the value: read the value, write it back changed.
    func member<Subject>(_ keyPath: WritableKeyPath<Value, Subject>) -> BindingAccess<Subject> {
        if let get, let set {
            return BindingAccess<Subject>(
                get: { get()[keyPath: keyPath] },
                set: { member in
                    var value = get()
                    value[keyPath: keyPath] = member
                    set(value)
                })
        }
        let read = read
        let write = write
        return BindingAccess<Subject>(
            read: { await read()[keyPath: keyPath] },
            write: { member in
                var value = await read()
                value[keyPath: keyPath] = member
                await write(value)
            })
    }
}
