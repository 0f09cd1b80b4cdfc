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
    @usableFromInline package let containerType: any AnyObject.Type
    @usableFromInline package let name: StaticString
    @usableFromInline package let parameterType: Any.Type
    @usableFromInline package let valueType: Any.Type

    @inlinable
    package init(containerType: any AnyObject.Type, name: StaticString, parameterType: Any.Type, valueType: Any.Type) {
        self.containerType = containerType
        self.name = name
        self.parameterType = parameterType
        self.valueType = valueType
    }

    /// Whether two keys name the same factory: same container type, name, parameter and value type.
    @inlinable
    public static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        ObjectIdentifier(lhs.valueType) == ObjectIdentifier(rhs.valueType)
            && ObjectIdentifier(lhs.containerType) == ObjectIdentifier(rhs.containerType)
            && ObjectIdentifier(lhs.parameterType) == ObjectIdentifier(rhs.parameterType)
            && Self.sameName(lhs.name, rhs.name)
    }

    /// Hashes the key without reading the name's characters; see `_rawHashValue(seed:)`.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mixedBits)
    }

    /// Scope caches look keys up on every cached resolution, where SipHash alone
    /// costs more than building a small object. Keys are made by this library from
    /// type addresses, not from outside input, so a multiplicative mix of the
    /// types' addresses and the name's length (not its characters, so equal names
    /// at different addresses hash alike) is safe and spreads them well.
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        let mixed = (mixedBits ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
        return Int(bitPattern: mixed ^ (mixed &>> 29))
    }

    @inlinable
    var mixedBits: UInt {
        let value = UInt(bitPattern: ObjectIdentifier(valueType))
        let container = UInt(bitPattern: ObjectIdentifier(containerType))
        return value ^ (container &<< 7) ^ (UInt(name.utf8CodeUnitCount) &* 0x9E37_79B9)
    }

    @inlinable
    static func sameName(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
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
