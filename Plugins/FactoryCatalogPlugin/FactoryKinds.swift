/// A factory type of FactoryCore that the catalog lists.
///
/// ``FactoryKind/all`` is the one list the plugin knows them from: the symbol-graph
/// scan (``FactoryScanner``), the source scan of `#if` branches (``SourceScanner``)
/// and the check's messages all read it. A new factory kind is one line here, and a
/// `factory` overload of `FactoryCatalog.Builder` in FactoryTesting (which the
/// generated `$0.factory(...)` call resolves to by the key path's type).
struct FactoryKind: Hashable, Sendable {
    /// The type's name in FactoryCore, as code spells it: `Factory`, `ParameterFactory`, ...
    let name: String

    /// Every factory kind, in the order the documentation lists them.
    static let all = [
        FactoryKind(name: "Factory"),
        FactoryKind(name: "ParameterFactory"),
        FactoryKind(name: "AsyncFactory"),
        FactoryKind(name: "AsyncParameterFactory"),
    ]

    /// The module that declares the kinds, as the compiler's precise identifiers
    /// (USRs) start: `s:11FactoryCore`. A type of the same name from another module
    /// is not a factory.
    static let module = "FactoryCore"

    /// The modules that re-export FactoryCore, under whose names code may qualify a
    /// kind (`FactoryKit.Factory<T>`).
    static let qualifiers: Set<String> = [
        "FactoryCore", "FactoryScopes", "FactoryWrappers", "FactoryTesting", "FactoryKit", "FactoryProfiling",
    ]

    /// The kind a type named `name` is, if it is one.
    static func named(_ name: String) -> FactoryKind? {
        all.first { $0.name == name }
    }

    /// The kind of a symbol-graph type identifier: its spelling and precise identifier.
    static func of(spelling: String, preciseIdentifier: String?) -> FactoryKind? {
        guard preciseIdentifier?.hasPrefix("s:\(module.utf8.count)\(module)") == true else { return nil }
        return named(spelling)
    }
}
