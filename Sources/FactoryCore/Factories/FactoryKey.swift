#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Identifies one factory: its container type, its name (`#function`, the property's name), its
/// parameter type and its value type. Two factories are the same when all four are equal; names
/// compare by their characters, so equal names compiled into different modules are equal. Each
/// container instance keeps its own registrations and caches under these keys.
public struct FactoryKey: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline package let name: StaticString
    @usableFromInline package let valueType: Any.Type
    @usableFromInline package let parameterType: Any.Type  // `Void` for a Factory
    @usableFromInline package let containerType: any AnyObject.Type

    @inlinable
    package init(name: StaticString, valueType: Any.Type, parameterType: Any.Type, containerType: any AnyObject.Type) {
        self.name = name
        self.valueType = valueType
        self.parameterType = parameterType
        self.containerType = containerType
    }

    /// Whether two keys name the same factory.
    @inlinable
    public static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        ObjectIdentifier(lhs.valueType) == ObjectIdentifier(rhs.valueType)
            && ObjectIdentifier(lhs.parameterType) == ObjectIdentifier(rhs.parameterType)
            && ObjectIdentifier(lhs.containerType) == ObjectIdentifier(rhs.containerType)
            && FactoryName.equal(lhs.name, rhs.name)
    }

    /// Hashes the key's name by its characters and its three types by identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(hashBits) }

    @_alwaysEmitIntoClient @inline(__always)
    package var hashBits: Int {
        FactoryName.hash(name, ObjectIdentifier(valueType), ObjectIdentifier(parameterType), ObjectIdentifier(containerType))
    }

    /// `Container.name<Type>`, the form traces and error messages use.
    public var description: String {
        "\(String(describing: containerType)).\(name)<\(String(describing: valueType))>"
    }
}

/// Hashing and comparing factory names without building strings.
@usableFromInline
package enum FactoryName {
    @inlinable
    package static func equal(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
        guard lhs.hasPointerRepresentation, rhs.hasPointerRepresentation else {
            return lhs.description == rhs.description
        }
        let count = lhs.utf8CodeUnitCount
        guard count == rhs.utf8CodeUnitCount else { return false }
        if lhs.utf8Start == rhs.utf8Start { return true }
        return memcmp(lhs.utf8Start, rhs.utf8Start, count) == 0
    }

    /// Hashes the length and three 8-byte words (start, middle, end; overlapping when short), so
    /// every character of a name up to 24 bytes counts and equal names at different addresses
    /// hash alike; longer names differing elsewhere collide and ``equal(_:_:)`` tells them apart.
    /// Keys come from code, not input, so one multiplication suffices: every cache hit computes it.
    @_alwaysEmitIntoClient @inline(__always)
    package static func hash(
        _ name: StaticString, _ first: ObjectIdentifier, _ second: ObjectIdentifier, _ third: ObjectIdentifier
    ) -> Int {
        let types = combine(first, second, third)
        if name.hasPointerRepresentation {
            return finish(types, UnsafeRawPointer(name.utf8Start), name.utf8CodeUnitCount)
        }
        return name.withUTF8Buffer { finish(types, UnsafeRawPointer($0.baseAddress!), $0.count) }
    }

    /// ``hash(_:_:_:_:)`` of these characters, for tests' names built at run time.
    package static func hashBytes(
        _ bytes: UnsafeRawBufferPointer, _ first: ObjectIdentifier, _ second: ObjectIdentifier, _ third: ObjectIdentifier
    ) -> Int {
        let types = combine(first, second, third)
        guard let base = bytes.baseAddress else { return finish(types, words: 0) }
        return finish(types, base, bytes.count)
    }

    // Type identities' low bits are alignment: rotations put varying bits where the table's mask looks.
    @_alwaysEmitIntoClient @inline(__always)
    static func combine(_ first: ObjectIdentifier, _ second: ObjectIdentifier, _ third: ObjectIdentifier) -> UInt {
        UInt(bitPattern: first) ^ rotate(UInt(bitPattern: second), 21) ^ rotate(UInt(bitPattern: third), 43)
    }

    @_alwaysEmitIntoClient @inline(__always)
    static func finish(_ types: UInt, _ start: UnsafeRawPointer, _ count: Int) -> Int {
        var words = UInt(count)
        if count >= 8 {
            words &+= start.loadUnaligned(as: UInt.self)
            words &+= rotate(start.loadUnaligned(fromByteOffset: (count - 8) / 2, as: UInt.self), 19)
            words &+= rotate(start.loadUnaligned(fromByteOffset: count - 8, as: UInt.self), 37)
        } else {
            var word: UInt = 0
            for offset in 0..<count {
                word = (word &<< 8) | UInt(start.load(fromByteOffset: offset, as: UInt8.self))
            }
            words &+= word &<< 8
        }
        return finish(types, words: words)
    }

    @_alwaysEmitIntoClient @inline(__always)
    static func finish(_ types: UInt, words: UInt) -> Int {
        let state = (types ^ words) &* 0x9E37_79B9_7F4A_7C15
        return Int(bitPattern: state ^ (state &>> 29))
    }

    @_alwaysEmitIntoClient @inline(__always)
    static func rotate(_ value: UInt, _ bits: UInt) -> UInt {
        (value &<< bits) | (value &>> (UInt(UInt.bitWidth) &- bits))
    }
}
