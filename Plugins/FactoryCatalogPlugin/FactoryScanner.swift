import Foundation

/// A factory property of a container, as the symbol graph declares it.
struct FoundFactory {
    enum Kind: String {
        case factory = "Factory"
        case parameterFactory = "ParameterFactory"
        case asyncFactory = "AsyncFactory"
        case asyncParameterFactory = "AsyncParameterFactory"
    }

    /// The container type, as Swift spells it (`Container`, `Outer.Inner`).
    let container: String
    let property: String
    let kind: Kind
    /// `private`, `fileprivate`, `internal`, `package`, `public` or `open`.
    let access: String
    /// Declared on the main actor: its key path can only be made there.
    let isMainActor: Bool
    /// `path:line`, relative to the package, when the symbol graph has it.
    let location: String?

    var name: String { "\(container).\(property)" }
}

/// A factory property the catalog lists but cannot validate.
struct SkippedFactory {
    let name: String
    let access: String
    let reason: String
    let location: String?
}

/// Finds every factory property in a module's symbol graphs: the instance
/// properties of type `Factory`, `ParameterFactory`, `AsyncFactory` or
/// `AsyncParameterFactory` (FactoryCore's, by their precise identifiers) declared
/// on `Container` or on a type that conforms to `ManagedContainer`, in the type or
/// in any extension, in any file.
struct FactoryScanner {
    static let coreIdentifierPrefix = "s:11FactoryCore"
    static let container = "s:11FactoryCore9ContainerC"
    static let containerProtocols: Set<String> = ["s:11FactoryCore16ManagedContainerP", "s:11FactoryCore15SharedContainerP"]

    let graphs: [SymbolGraph]
    /// The package directory, to print locations relative to it.
    let packageDirectory: String
    /// Treat every factory as declared on the main actor (`--main-actor`).
    let mainActorByDefault: Bool

    func scan() -> (found: [FoundFactory], skipped: [SkippedFactory]) {
        var symbols: [String: SymbolGraph.Symbol] = [:]
        var memberOf: [String: String] = [:]
        var extensionTo: [String: String] = [:]
        var conformances: [String: Set<String>] = [:]
        for graph in graphs {
            for symbol in graph.symbols { symbols[symbol.identifier.precise] = symbol }
            for relation in graph.relationships {
                switch relation.kind {
                case "memberOf": memberOf[relation.source] = relation.target
                case "extensionTo": extensionTo[relation.source] = relation.target
                case "conformsTo": conformances[relation.source, default: []].insert(relation.target)
                default: break
                }
            }
        }
        var found: [FoundFactory] = []
        var skipped: [SkippedFactory] = []
        for symbol in symbols.values {
            guard symbol.kind.identifier == "swift.property" || symbol.kind.identifier == "swift.type.property",
                let kind = Self.factoryKind(symbol.declarationFragments ?? []), symbol.pathComponents.count >= 2
            else { continue }
            var owner = memberOf[symbol.identifier.precise]
            // A member of an extension block: the extended type is what it extends.
            if let block = owner, block.hasPrefix("s:e:") { owner = extensionTo[block] }
            let factory = FoundFactory(
                container: symbol.pathComponents.dropLast().joined(separator: "."),
                property: symbol.pathComponents.last!, kind: kind, access: symbol.accessLevel,
                isMainActor: mainActorByDefault
                    || (symbol.declarationFragments ?? []).contains {
                        $0.kind == "attribute" && $0.preciseIdentifier == "s:ScM"
                    },
                location: location(symbol))
            let ownerSymbol = owner.flatMap { symbols[$0] }
            if let reason = skipReason(symbol, factory, owner: owner, ownerSymbol, conformances) {
                skipped.append(
                    SkippedFactory(name: factory.name, access: factory.access, reason: reason, location: factory.location))
            } else {
                found.append(factory)
            }
        }
        return (found.sorted { $0.name < $1.name }, skipped.sorted { $0.name < $1.name })
    }

    /// Why a test cannot validate the factory, or `nil` when it can.
    private func skipReason(
        _ symbol: SymbolGraph.Symbol, _ factory: FoundFactory, owner: String?, _ ownerSymbol: SymbolGraph.Symbol?,
        _ conformances: [String: Set<String>]
    ) -> String? {
        if symbol.kind.identifier == "swift.type.property" {
            return "static: not a factory of a container instance"
        }
        if factory.access == "private" || factory.access == "fileprivate" {
            return "a test target cannot reach it"
        }
        if symbol.swiftExtension?.typeKind == "swift.protocol" || owner?.hasSuffix("P") == true {
            return "in a protocol extension: validate it with validateGraph on a container that has it"
        }
        guard let owner, owner == Self.container || !(conformances[owner] ?? []).isDisjoint(with: Self.containerProtocols)
        else {
            return "\(factory.container) does not conform to ManagedContainer in this module's symbol graph"
        }
        if let ownerSymbol, ownerSymbol.accessLevel == "private" || ownerSymbol.accessLevel == "fileprivate" {
            return "its container type is \(ownerSymbol.accessLevel): a test target cannot reach it"
        }
        if ownerSymbol?.swiftGenerics?.parameters?.isEmpty == false {
            return "its container type is generic: the catalog cannot name an instance"
        }
        return nil
    }

    /// The factory type a property's declaration names first after `name: `, if
    /// it is one of FactoryCore's four; `Factory<T>?` or `[Factory<T>]` is not.
    static func factoryKind(_ fragments: [SymbolGraph.Symbol.Fragment]) -> FoundFactory.Kind? {
        guard let colon = fragments.firstIndex(where: { $0.kind == "text" && $0.spelling.hasPrefix(":") }),
            colon + 1 < fragments.count
        else { return nil }
        let type = fragments[colon + 1]
        guard type.kind == "typeIdentifier", type.preciseIdentifier?.hasPrefix(coreIdentifierPrefix) == true,
            fragments[colon].spelling == ": "
        else { return nil }
        return FoundFactory.Kind(rawValue: type.spelling)
    }

    /// `path:line` of a declaration, relative to the package directory when it is inside it.
    private func location(_ symbol: SymbolGraph.Symbol) -> String? {
        guard let location = symbol.location else { return nil }
        var path = location.uri
        if path.hasPrefix("file://") { path.removeFirst("file://".count) }
        path = path.removingPercentEncodingIfPossible
        let prefix = packageDirectory.hasSuffix("/") ? packageDirectory : packageDirectory + "/"
        if path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
        return "\(path):\(location.position.line + 1)"
    }
}

extension String {
    /// The string with `%XX` escapes decoded, or itself when it has none that decode.
    fileprivate var removingPercentEncodingIfPossible: String {
        removingPercentEncoding ?? self
    }
}
