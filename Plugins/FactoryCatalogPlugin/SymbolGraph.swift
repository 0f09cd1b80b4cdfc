import Foundation

/// The parts of a symbol graph file (`swift-symbolgraph-extract`'s JSON) the catalog reads.
struct SymbolGraph: Decodable {
    struct Module: Decodable {
        let name: String
    }

    struct Symbol: Decodable {
        struct Kind: Decodable {
            let identifier: String
        }

        struct Identifier: Decodable {
            let precise: String
        }

        struct Fragment: Decodable {
            let kind: String
            let spelling: String
            let preciseIdentifier: String?
        }

        struct Location: Decodable {
            struct Position: Decodable {
                let line: Int
            }

            let uri: String
            let position: Position
        }

        struct SwiftExtension: Decodable {
            let extendedModule: String
            let typeKind: String?
        }

        struct SwiftGenerics: Decodable {
            let parameters: [Parameter]?

            struct Parameter: Decodable {
                let name: String
            }
        }

        let kind: Kind
        let identifier: Identifier
        let pathComponents: [String]
        let accessLevel: String
        let declarationFragments: [Fragment]?
        let location: Location?
        let swiftExtension: SwiftExtension?
        let swiftGenerics: SwiftGenerics?
    }

    struct Relationship: Decodable {
        let kind: String
        let source: String
        let target: String
        let targetFallback: String?
    }

    let module: Module
    let symbols: [Symbol]
    let relationships: [Relationship]

    /// The graphs of `module` in `directory`: its own file and one file per module
    /// it extends (`Module@Other.symbols.json`).
    static func load(module: String, from directory: URL) throws -> [SymbolGraph] {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter {
                let name = $0.lastPathComponent
                return name == "\(module).symbols.json" || (name.hasPrefix("\(module)@") && name.hasSuffix(".symbols.json"))
            }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: $0)) }
    }
}
