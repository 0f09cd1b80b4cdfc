import Foundation

/// A factory property of a container, as the symbol graph (or, in a branch the
/// build left out, the source) declares it.
struct FoundFactory {
    /// The module that declares the property.
    let module: String
    /// The container type, as Swift spells it (`Container`, `Outer.Inner`).
    let container: String
    let property: String
    let kind: FactoryKind
    /// `private`, `fileprivate`, `internal`, `package`, `public` or `open`.
    let access: String
    /// Declared on the main actor: its key path can only be made there.
    let isMainActor: Bool
    /// `path:line`, relative to the package, when known.
    let location: String?
    /// The `#if` condition the declaration sits under, `nil` when it has none.
    var condition: String?

    var name: String { "\(container).\(property)" }
}

/// A factory property the catalog lists but cannot validate.
struct SkippedFactory {
    let module: String
    let name: String
    let access: String
    let reason: String
    let location: String?
    var condition: String?
}

/// Finds every factory property in the symbol graphs of a set of modules: the
/// instance properties whose type is one of FactoryCore's factory kinds
/// (``FactoryKind/all``, told apart by their precise identifiers) declared on
/// `Container` or on a type that conforms to `ManagedContainer`, in the type or in
/// any extension, in any file of any of the modules. A container type declared in
/// one module and extended in another is seen through all of their graphs.
struct FactoryScanner {
    static let container = "s:11FactoryCore9ContainerC"
    static let containerProtocols: Set<String> = ["s:11FactoryCore16ManagedContainerP", "s:11FactoryCore15SharedContainerP"]

    /// Each module with its graphs (its own file and one per module it extends).
    let modules: [(name: String, graphs: [SymbolGraph])]
    /// The package directory, to print locations relative to it.
    let packageDirectory: String
    /// Treat every factory as declared on the main actor (`--main-actor`).
    let mainActorByDefault: Bool

    /// What the scan found.
    struct Result {
        var found: [FoundFactory] = []
        var skipped: [SkippedFactory] = []
        /// `path:line:name` of every property the graphs declare, factory or not:
        /// a declaration of the source that is not here was not compiled.
        var declared: Set<String> = []
        /// Every container type of the graphs, as Swift spells it.
        var containers: Set<String> = ["Container"]
    }

    func scan() -> Result {
        var symbols: [String: SymbolGraph.Symbol] = [:]
        var moduleOf: [String: String] = [:]
        var memberOf: [String: String] = [:]
        var extensionTo: [String: String] = [:]
        var conformances: [String: Set<String>] = [:]
        for (module, graphs) in modules {
            for graph in graphs {
                for symbol in graph.symbols {
                    symbols[symbol.identifier.precise] = symbol
                    moduleOf[symbol.identifier.precise] = module
                }
                for relation in graph.relationships {
                    switch relation.kind {
                    case "memberOf": memberOf[relation.source] = relation.target
                    case "extensionTo": extensionTo[relation.source] = relation.target
                    case "conformsTo": conformances[relation.source, default: []].insert(relation.target)
                    default: break
                    }
                }
            }
        }
        var result = Result()
        for (identifier, protocols) in conformances where !protocols.isDisjoint(with: Self.containerProtocols) {
            if let type = symbols[identifier] { result.containers.insert(type.pathComponents.joined(separator: ".")) }
        }
        for (identifier, symbol) in symbols {
            guard symbol.kind.identifier == "swift.property" || symbol.kind.identifier == "swift.type.property" else {
                continue
            }
            if let location = location(symbol), let name = symbol.pathComponents.last {
                result.declared.insert("\(location):\(name)")
            }
            guard let kind = Self.factoryKind(symbol.declarationFragments ?? []), symbol.pathComponents.count >= 2,
                let module = moduleOf[identifier]
            else { continue }
            var owner = memberOf[identifier]
            // A member of an extension block: the extended type is what it extends.
            if let block = owner, block.hasPrefix("s:e:") { owner = extensionTo[block] }
            let factory = FoundFactory(
                module: module, container: symbol.pathComponents.dropLast().joined(separator: "."),
                property: symbol.pathComponents.last!, kind: kind, access: symbol.accessLevel,
                isMainActor: mainActorByDefault
                    || (symbol.declarationFragments ?? []).contains {
                        $0.kind == "attribute" && $0.preciseIdentifier == "s:ScM"
                    },
                location: location(symbol))
            let ownerSymbol = owner.flatMap { symbols[$0] }
            if let reason = skipReason(symbol, factory, owner: owner, ownerSymbol, conformances) {
                result.skipped.append(
                    SkippedFactory(
                        module: module, name: factory.name, access: factory.access, reason: reason,
                        location: factory.location))
            } else {
                result.found.append(factory)
            }
        }
        return result
    }

    /// Why a test cannot validate the factory, or `nil` when it can.
    private func skipReason(
        _ symbol: SymbolGraph.Symbol, _ factory: FoundFactory, owner: String?, _ ownerSymbol: SymbolGraph.Symbol?,
        _ conformances: [String: Set<String>]
    ) -> String? {
        if symbol.kind.identifier == "swift.type.property" {
            return SkipReason.isStatic
        }
        if factory.access == "private" || factory.access == "fileprivate" {
            return SkipReason.unreachable
        }
        if symbol.swiftExtension?.typeKind == "swift.protocol" || owner?.hasSuffix("P") == true {
            return "in a protocol extension: validate it with validateGraph on a container that has it"
        }
        guard let owner, owner == Self.container || !(conformances[owner] ?? []).isDisjoint(with: Self.containerProtocols)
        else {
            return "\(factory.container) does not conform to ManagedContainer in the symbol graphs of the modules catalogued"
        }
        if let ownerSymbol, ownerSymbol.accessLevel == "private" || ownerSymbol.accessLevel == "fileprivate" {
            return SkipReason.privateContainer(ownerSymbol.accessLevel)
        }
        if ownerSymbol?.swiftGenerics?.parameters?.isEmpty == false {
            return "its container type is generic: the catalog cannot name an instance"
        }
        return nil
    }

    /// The factory kind a property's declaration names first after `name: `, if it
    /// is one of FactoryCore's; `[Factory<T>]` is not.
    static func factoryKind(_ fragments: [SymbolGraph.Symbol.Fragment]) -> FactoryKind? {
        guard let colon = fragments.firstIndex(where: { $0.kind == "text" && $0.spelling.hasPrefix(":") }),
            colon + 1 < fragments.count, fragments[colon].spelling == ": "
        else { return nil }
        let type = fragments[colon + 1]
        guard type.kind == "typeIdentifier" else { return nil }
        return FactoryKind.of(spelling: type.spelling, preciseIdentifier: type.preciseIdentifier)
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

/// The reasons a factory is skipped that the symbol-graph and the source scan share.
enum SkipReason {
    static let isStatic = "static: not a factory of a container instance"
    static let unreachable = "a test target cannot reach it"

    static func privateContainer(_ access: String) -> String {
        "its container type is \(access): a test target cannot reach it"
    }
}

extension String {
    /// The string with `%XX` escapes decoded, or itself when it has none that decode.
    fileprivate var removingPercentEncodingIfPossible: String {
        removingPercentEncoding ?? self
    }
}
