import FactoryCore
import FactoryTestSupport
import Testing

/// A `StaticString` of one Unicode scalar (not a pointer to UTF-8): a key's name
/// may come in either form.
private struct ScalarName: ExpressibleByUnicodeScalarLiteral {
    let value: StaticString
    init(unicodeScalarLiteral value: StaticString) { self.value = value }
}

@Suite struct FactoryKeyTests {
    private func key(_ name: StaticString, _ type: Any.Type = Int.self) -> FactoryKey {
        FactoryKey(name: name, valueType: type, parameterType: Void.self, containerType: Container.self)
    }

    @Test func namesOfEqualLengthSpreadOverTheTable() {
        // 4,096 factories of one type whose names have the same length: before, they all shared one hash.
        var hashes = Set<Int>()
        for index in 0..<4_096 {
            let name = "factory\(String(index, radix: 16).leftPadding(to: 4))"
            name.withCString { pointer in
                let bytes = UnsafeRawBufferPointer(start: pointer, count: name.utf8.count)
                hashes.insert(
                    FactoryName.hashBytes(
                        bytes, ObjectIdentifier(Int.self), ObjectIdentifier(Void.self), ObjectIdentifier(Container.self)))
            }
        }
        #expect(hashes.count == 4_096)
        // The run-time helper hashes exactly as a key does, so the spread above is the keys' spread.
        let name: StaticString = "factory0fff"
        let bytes = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        let helper = FactoryName.hashBytes(
            bytes, ObjectIdentifier(Int.self), ObjectIdentifier(Void.self), ObjectIdentifier(Container.self))
        #expect(helper == key(name).hashBits)
    }

    @Test func equalNamesAtDifferentAddressesAreOneKey() {
        let here = key("sharedFactoryName")
        let there = key(supportModuleFactoryName)
        #expect(here == there)
        #expect(here.hashBits == there.hashBits)
        #expect(here.hashValue == there.hashValue)
        #expect(key("otherFactoryName") != here)
    }

    @Test func aScalarNameEqualsThePointerName() {
        let scalar = key(ScalarName(unicodeScalarLiteral: "x").value)
        let pointer = key("x")
        #expect(scalar == pointer)
        #expect(scalar.hashBits == pointer.hashBits)
    }

    @Test func typesArePartOfTheKey() {
        #expect(key("service", Int.self) != key("service", String.self))
        let parameter = FactoryKey(name: "service", valueType: Int.self, parameterType: Int.self, containerType: Container.self)
        #expect(parameter != key("service"))
    }

    /// Names of one length, so that only their characters tell the keys apart: a
    /// key that confused two would hand one factory the other's cached instance.
    @Test func manyFactoriesOfOneTypeResolveAndCacheSeparately() {
        let container = Container()
        let names: [StaticString] = ["alpha", "bravo", "delta", "gamma", "omega", "sigma"]
        let factories = names.map { name in
            Factory<Service>(container, key: name) { Service() }.scope(CoreScopes.cached)
        }
        let first = factories.map { $0() }
        let again = factories.map { $0() }
        #expect(Set(first.map(ObjectIdentifier.init)).count == names.count, "two factories shared a cache entry")
        #expect(zip(first, again).allSatisfy { $0.0 === $0.1 }, "a factory did not keep its own instance")
    }
}

extension String {
    fileprivate func leftPadding(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
