import Foundation
import Testing

/// The source scanner against the compiler, on real code: for every module of
/// this package's tests and examples (and, with `FACTORY_SCANNER_PACKAGES`, of the
/// fixture and example packages CI built), every factory property the symbol graph
/// declares is one the scanner reads, at the same place, with the same container,
/// name, kind, access, `static` and `@MainActor`, under a condition that holds in
/// this build; and every factory the scanner reads that the graph does not declare
/// sits under a condition that does not hold here (a branch the build left out).
@Suite struct SymbolGraphAgreementTests {
    /// The package's root: this file is `Tests/FactoryCatalogPluginTests/<name>.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().standardizedFileURL.path

    /// Where the running test binary was built: `<scratch>/<triple>/<configuration>/`.
    static var runningBuildManifest: URL? {
        #if os(Linux)
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let configuration = directory.lastPathComponent
        return directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("\(configuration).yaml")
        #else
        return nil
        #endif
    }

    /// This package's tests and examples, and the packages named in
    /// `FACTORY_SCANNER_PACKAGES` (directories relative to the root, separated by
    /// spaces, each built in its own `.build`, or `DIRECTORY=MANIFEST` for a build in
    /// another scratch folder): CI's fixtures and example packages, after the steps
    /// that build them (scripts/check-scanner.sh).
    ///
    /// Linux only: elsewhere the test bundle's place and the extractor's target are
    /// found differently, and no CI here runs them.
    @Test(.enabled(if: runningBuildManifest != nil, "reads the running build from /proc/self/exe (Linux)"))
    func theScannerReadsWhatTheCompilerDeclares() throws {
        let manifest = try #require(Self.runningBuildManifest)
        let build = try BuildDescription(manifest: manifest)
        let checked = try Self.check(build, modulesUnder: [Self.root + "/Tests/", Self.root + "/Examples/"])
        // Every test target and example of the package, this one's corpus included.
        for module in [
            "FactoryCoreTests", "FactoryScopesTests", "FactoryWrappersTests", "FactoryTestingTests",
            "FactoryCompatibilityTests", "FactoryTestSupport", "FactoryCatalogPluginTests", "CoreDemo", "FactoryDemo",
            "FactoryStress",
        ] {
            #expect(checked.modules.contains(module), "\(module) was not checked")
        }
        #expect(checked.factories > 400, "only \(checked.factories) factories compared")

        let packages = (ProcessInfo.processInfo.environment["FACTORY_SCANNER_PACKAGES"] ?? "").split(separator: " ")
        let absolute = { (path: Substring) in path.hasPrefix("/") ? String(path) : Self.root + "/" + path }
        for package in packages {
            let parts = package.split(separator: "=", maxSplits: 1)
            let directory = URL(fileURLWithPath: absolute(parts[0])).standardizedFileURL.path
            let manifest = parts.count == 2 ? absolute(parts[1]) : directory + "/.build/debug.yaml"
            let build = try BuildDescription(manifest: URL(fileURLWithPath: manifest))
            let checked = try Self.check(build, modulesUnder: [directory + "/"])
            #expect(!checked.modules.isEmpty, "no module of \(parts[0]) was checked")
            #expect(checked.factories > 0, "no factory of \(parts[0]) was compared")
            print("SymbolGraphAgreementTests: \(parts[0]): \(checked.factories) factories of \(checked.modules.sorted())")
        }
    }

    /// Compares every module of `build` whose sources are all under one of `prefixes`
    /// (and not in a build folder); returns the modules checked and how many factories it compared.
    static func check(_ build: BuildDescription, modulesUnder prefixes: [String]) throws -> (modules: Set<String>, factories: Int)
    {
        var checked: Set<String> = []
        var factories = 0
        let buildModules = Set(
            (try? FileManager.default.contentsOfDirectory(atPath: build.modulesDirectory))?.compactMap {
                $0.hasSuffix(".swiftmodule") ? String($0.dropLast(".swiftmodule".count)) : nil
            } ?? [])
        for module in build.modules {
            let sources = module.sources.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            guard !sources.isEmpty,
                sources.allSatisfy({ source in
                    prefixes.contains { source.hasPrefix($0) } && !source.contains("/.build")
                })
            else { continue }
            let conditions = CompilationConditions(flags: module.flags, buildModules: buildModules)
            let problems = try compare(module, graphs: build.symbolGraphs(of: module), conditions: conditions)
            for problem in problems.problems {
                Issue.record(Comment(rawValue: "\(module.name): \(problem)"))
            }
            checked.insert(module.name)
            factories += problems.compared
        }
        return (checked, factories)
    }

    /// A factory property as the symbol graph declares it.
    struct GraphFactory {
        let container: String
        let property: String
        let kind: FactoryKind
        let access: String
        let isStatic: Bool
        let isMainActor: Bool
        /// The file (absolute, symbolic links resolved) and 1-based line; `nil` for some private declarations.
        let place: (file: String, line: Int)?

        var name: String { "\(container).\(property)" }
    }

    static func graphFactories(_ graphs: [SymbolGraph]) -> [GraphFactory] {
        var seen: Set<String> = []
        var factories: [GraphFactory] = []
        for graph in graphs {
            for symbol in graph.symbols
            where symbol.kind.identifier == "swift.property" || symbol.kind.identifier == "swift.type.property" {
                guard let kind = FactoryScanner.factoryKind(symbol.declarationFragments ?? []),
                    symbol.pathComponents.count >= 2, seen.insert(symbol.identifier.precise).inserted
                else { continue }
                var place: (String, Int)?
                if let location = symbol.location, let url = URL(string: location.uri) {
                    place = (url.resolvingSymlinksInPath().path, location.position.line + 1)
                }
                factories.append(
                    GraphFactory(
                        container: symbol.pathComponents.dropLast().joined(separator: "."),
                        property: symbol.pathComponents.last!, kind: kind, access: symbol.accessLevel,
                        isStatic: symbol.kind.identifier == "swift.type.property",
                        isMainActor: (symbol.declarationFragments ?? []).contains {
                            $0.kind == "attribute" && $0.preciseIdentifier == "s:ScM"
                        },
                        place: place))
            }
        }
        return factories
    }

    /// What differs between the module's symbol graph and the scan of its sources.
    static func compare(
        _ module: BuildDescription.Module, graphs: [SymbolGraph], conditions: CompilationConditions
    ) throws -> (problems: [String], compared: Int) {
        var problems: [String] = []
        // Every declaration the scanner reads, by file.
        var scanned: [(file: String, declaration: SourceFile.Declaration)] = []
        for source in module.sources {
            let file = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
            guard let text = try? String(contentsOfFile: source, encoding: .utf8) else {
                throw BuildDescription.Failure(
                    description: "\(module.name) was built with \(source), which is gone: build the package again")
            }
            scanned += SourceFile(path: file, text: text).declarations.map { (file, $0) }
        }
        let shown = { (file: String, line: Int) in "\(file.replacingOccurrences(of: root + "/", with: "")):\(line)" }
        var matched = Set<Int>()
        let factories = graphFactories(graphs)
        for factory in factories {
            let index: Int?
            if let place = factory.place {
                index = scanned.indices.first {
                    scanned[$0].file == place.file && scanned[$0].declaration.line == place.line
                        && scanned[$0].declaration.property == factory.property
                }
            } else {
                // The graph gives no place for some private declarations: by name, among the compiled ones.
                index = try scanned.indices.first {
                    let declaration = scanned[$0].declaration
                    guard !matched.contains($0), declaration.container == factory.container,
                        declaration.property == factory.property
                    else { return false }
                    return try conditions.holds(declaration.condition)
                }
            }
            let place = factory.place.map(shown) ?? "(no place)"
            guard let index else {
                problems.append("the compiler declares \(factory.name) at \(place); the scanner did not read it")
                continue
            }
            matched.insert(index)
            let declaration = scanned[index].declaration
            var differences: [String] = []
            if declaration.container != factory.container { differences.append("container \(declaration.container)") }
            if declaration.kind != factory.kind { differences.append("kind \(declaration.kind.name)") }
            if declaration.access != factory.access {
                differences.append("access \(declaration.access), not \(factory.access)")
            }
            if declaration.isStatic != factory.isStatic { differences.append(declaration.isStatic ? "static" : "not static") }
            if !module.isMainActorByDefault && declaration.isMainActor != factory.isMainActor {
                differences.append(declaration.isMainActor ? "@MainActor" : "not @MainActor")
            }
            if let condition = declaration.condition, try !conditions.evaluate(condition) {
                differences.append("under #if \(condition), which does not hold in this build")
            }
            if !differences.isEmpty {
                problems.append("\(factory.name) at \(place): the scanner reads \(differences.joined(separator: ", "))")
            }
        }
        for (index, (file, declaration)) in scanned.enumerated() where !matched.contains(index) {
            let condition = declaration.condition
            guard try !conditions.holds(condition) else {
                problems.append(
                    "the scanner reads \(declaration.container).\(declaration.property) at \(shown(file, declaration.line))"
                        + (condition.map { " under #if \($0), which holds here," } ?? "")
                        + " but the compiler declares no such factory property")
                continue
            }
        }
        return (problems, factories.count)
    }
}
