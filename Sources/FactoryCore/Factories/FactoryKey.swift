#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Identifies one factory: its container type, its name (`#function`), its
/// parameter type and its value type.
///
/// Hashing and equality touch no string: the name is a `StaticString` compared
/// by address first and by bytes only when two addresses differ, and the hash
/// uses the name's length rather than its characters.
public struct FactoryKey: Hashable, Sendable {
    package let containerType: any AnyObject.Type
    package let name: StaticString
    package let parameterType: Any.Type
    package let valueType: Any.Type

    package init(containerType: any AnyObject.Type, name: StaticString, parameterType: Any.Type, valueType: Any.Type) {
        self.containerType = containerType
        self.name = name
        self.parameterType = parameterType
        self.valueType = valueType
    }

    public static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        ObjectIdentifier(lhs.valueType) == ObjectIdentifier(rhs.valueType)
            && ObjectIdentifier(lhs.containerType) == ObjectIdentifier(rhs.containerType)
            && ObjectIdentifier(lhs.parameterType) == ObjectIdentifier(rhs.parameterType)
            && Self.sameName(lhs.name, rhs.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(valueType))
        hasher.combine(ObjectIdentifier(containerType))
        hasher.combine(name.utf8CodeUnitCount)
    }

    @inline(__always)
    private static func sameName(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
        guard lhs.hasPointerRepresentation, rhs.hasPointerRepresentation else {
            return lhs.description == rhs.description
        }
        let count = lhs.utf8CodeUnitCount
        guard count == rhs.utf8CodeUnitCount else { return false }
        if lhs.utf8Start == rhs.utf8Start { return true }
        return memcmp(lhs.utf8Start, rhs.utf8Start, count) == 0
    }

    /// `Container.name<Type>`, the form used in traces and error messages.
    public var description: String {
        "\(String(describing: containerType)).\(name)<\(String(describing: valueType))>"
    }
}

extension FactoryKey: CustomStringConvertible {}
