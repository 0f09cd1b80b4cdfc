import Foundation
import PackagePlugin

/// `swift package factory-catalog (--target T | --test-target T) [--output PATH] [--name NAME] [--main-actor] [--check]`
///
/// Asks SwiftPM for the symbol graph of target T, or of every target of the package
/// that test target T depends on, directly or not (which builds them), finds every
/// factory of every container in them (``FactoryScanner``), reads the sources for
/// the `#if` blocks around each and the factories of the branches left out
/// (``SourceFile``, ``CatalogMerge``), and writes the catalog (``CatalogFile``) into
/// the test target, or, with `--check`, compares it with the file there and fails
/// naming every entry that is missing, stale or changed.
@main
struct FactoryCatalogCommand: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The command line, read.
    struct Options {
        /// `--target`: one module, into its test target.
        let target: String?
        /// `--test-target`: every module of the package the test target reaches, into it.
        let testTarget: String?
        let output: String?
        let name: String?
        let check: Bool
        /// The targets are built with `defaultIsolation(MainActor.self)`: their symbol graph
        /// does not mark the properties that setting isolates, so every key path is made on the main actor.
        let mainActor: Bool
        /// Read every factory under `#if` from the source rather than the symbol graph,
        /// as a machine that compiles none of those branches would: the catalog must not
        /// change (scripts/check-catalog.sh checks it).
        let conditionalFromSource: Bool

        init(_ arguments: [String]) throws {
            var extractor = ArgumentExtractor(arguments)
            let targets = extractor.extractOption(named: "target")
            let testTargets = extractor.extractOption(named: "test-target")
            output = extractor.extractOption(named: "output").last
            name = extractor.extractOption(named: "name").last
            check = extractor.extractFlag(named: "check") > 0
            mainActor = extractor.extractFlag(named: "main-actor") > 0
            conditionalFromSource = extractor.extractFlag(named: "conditional-from-source") > 0
            guard extractor.remainingArguments.isEmpty else {
                throw Failure(
                    description: "factory-catalog: unknown arguments \(extractor.remainingArguments); usage: \(usage)")
            }
            guard targets.count + testTargets.count == 1 else {
                throw Failure(
                    description: "factory-catalog: name one target with --target, or one test target with --test-target; "
                        + "usage: \(usage)")
            }
            target = targets.first
            testTarget = testTargets.first
        }

        /// The arguments that make the same catalog, as the file's header and messages show them.
        var shown: String {
            var shown = target.map { "--target \($0)" } ?? "--test-target \(testTarget ?? "")"
            if let output { shown += " --output \(output)" }
            if let name { shown += " --name \(name)" }
            if mainActor { shown += " --main-actor" }
            return shown
        }
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let options = try Options(arguments)
        let package = context.package
        let scope = try CatalogScope(options, in: package)
        let packageDirectory = package.directoryURL.path
        let merged = try factories(of: scope.modules, options, packageDirectory: packageDirectory)
        let file = CatalogFile(
            subject: scope.subject, propertyName: options.name ?? Self.lowerCamel(scope.subjectName), found: merged.found,
            skipped: merged.skipped, arguments: options.shown)
        let shown = Self.relative(scope.output.path, to: packageDirectory)
        let containers = Set(merged.found.map(\.container)).count
        var summary =
            "\(merged.found.count) \(merged.found.count == 1 ? "factory" : "factories") of \(containers) "
            + "\(containers == 1 ? "container" : "containers"), \(merged.skipped.count) skipped"
        if case .testTarget(let target, let modules) = scope.subject {
            summary += ", in the \(modules.count) \(modules.count == 1 ? "module" : "modules") \(target) depends on"
        }
        if options.check {
            try Self.check(file, at: scope.output, shown: shown, arguments: options.shown)
            print("factory-catalog: \(shown) is current: \(summary)")
        } else {
            let text = file.render()
            // Left untouched when current, so that the test target is not rebuilt for nothing.
            if (try? String(contentsOf: scope.output, encoding: .utf8)) != text {
                try FileManager.default.createDirectory(
                    at: scope.output.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: scope.output, atomically: true, encoding: .utf8)
            }
            print("factory-catalog: wrote \(shown): \(summary)")
        }
        let inModule = scope.modules.count > 1
        for factory in merged.skipped {
            let details = [inModule ? "in \(factory.module)" : nil, factory.access, factory.location].compactMap { $0 }
            print("  skipped \(factory.name) (\(details.joined(separator: ", "))): \(factory.reason)")
        }
        for note in merged.notes { print(note) }
    }

    /// Builds the modules, reads their symbol graphs and sources, and finds their factories.
    private func factories(
        of modules: [SwiftSourceModuleTarget], _ options: Options, packageDirectory: String
    ) throws -> CatalogMerge.Result {
        // Internal factories are what an app declares most; private ones are asked
        // for too, to report them as skipped rather than leave them out unseen.
        let graphOptions = PackageManager.SymbolGraphOptions(
            minimumAccessLevel: .private, includeInheritedDocs: false, includeSynthesized: false, includeSPI: true,
            emitExtensionBlocks: true)
        var graphs: [(name: String, graphs: [SymbolGraph])] = []
        var sources: [(module: String, file: SourceFile)] = []
        for module in modules {
            let result = try packageManager.getSymbolGraph(for: module, options: graphOptions)
            let loaded = try SymbolGraph.load(module: module.moduleName, from: result.directoryURL)
            guard !loaded.isEmpty else {
                throw Failure(
                    description: "factory-catalog: no symbol graph of \(module.moduleName) in \(result.directoryURL.path)")
            }
            graphs.append((module.moduleName, loaded))
            for url in module.sourceFiles(withSuffix: "swift").map(\.url) {
                let text = try String(contentsOf: url, encoding: .utf8)
                sources.append((module.moduleName, SourceFile(path: Self.relative(url.path, to: packageDirectory), text: text)))
            }
        }
        let scan = FactoryScanner(modules: graphs, packageDirectory: packageDirectory, mainActorByDefault: options.mainActor)
            .scan()
        var merge = CatalogMerge(sources: sources, mainActorByDefault: options.mainActor)
        merge.conditionalFromSource = options.conditionalFromSource
        return merge.merge(scan)
    }

    static let usage =
        "swift package [--allow-writing-to-package-directory] factory-catalog (--target TARGET | --test-target TEST_TARGET) "
        + "[--output PATH] [--name PROPERTY] [--main-actor] [--check]"

    /// Compares the catalog at `url` with what the code gives; throws, naming each
    /// difference with its module and place, when they differ.
    static func check(_ file: CatalogFile, at url: URL, shown: String, arguments: String) throws {
        let command = "swift package --allow-writing-to-package-directory factory-catalog \(arguments)"
        guard let existing = try? String(contentsOf: url, encoding: .utf8) else {
            throw Failure(description: "factory-catalog: there is no catalog at \(shown); generate it: \(command)")
        }
        let expected = file.render()
        guard existing != expected else { return }
        let old = CatalogFile.entries(of: existing)
        let new = CatalogFile.entries(of: expected)
        let subject: String
        switch file.subject {
        case .module(let module): subject = "target \(module)"
        case .testTarget(let target, _): subject = "the modules test target \(target) depends on"
        }
        var lines = ["factory-catalog: \(shown) does not match \(subject):"]
        // What the code declares, by entry key: its module, place, and what the catalog should say of it.
        let declared =
            file.found.map {
                (Self.key($0.module, $0.condition, $0.name, in: file), $0.module, $0.location, "\($0.access) \($0.kind.name)")
            }
            + file.skipped.map {
                (Self.key($0.module, $0.condition, $0.name, in: file), $0.module, $0.location, "skipped: \($0.reason)")
            }
        let places = Dictionary(declared.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { first, _ in first })
        func described(_ entry: CatalogFile.Entry) -> String {
            "\(entry.name) in \(places[entry.key]?.0 ?? entry.module ?? file.name)"
                + (entry.condition.map { " under #if \($0)" } ?? "")
        }
        for (key, _, location, what) in declared where old[key] == nil {
            guard let entry = new[key] else { continue }
            lines.append("  missing: \(described(entry)), \(what)" + (location.map { " (\($0))" } ?? ""))
        }
        for (key, entry) in old.sorted(by: { $0.value.line < $1.value.line }) {
            if let current = new[key] {
                guard current.call != entry.call else { continue }
                let place = places[key]?.1.map { " (\($0))" } ?? ""
                lines.append(
                    "  changed: \(described(entry))\(place): the catalog says `\(entry.call)` "
                        + "(\(shown):\(entry.line)), the code gives `\(current.call)`")
            } else {
                lines.append("  stale: \(described(entry)), listed at \(shown):\(entry.line) but no longer declared")
            }
        }
        if lines.count == 1 { lines.append("  the factories are the same, the rest of the file differs") }
        // One error, details included: SwiftPM prints it after whatever the plugin printed.
        lines.append("Regenerate it: \(command)")
        throw Failure(description: lines.joined(separator: "\n"))
    }

    /// The ``CatalogFile/Entry/key`` of a factory in `file`.
    private static func key(_ module: String, _ condition: String?, _ name: String, in file: CatalogFile) -> String {
        let block: String? = if case .testTarget = file.subject { module } else { nil }
        return CatalogFile.Entry(module: block, condition: condition, name: name, call: "", line: 0).key
    }

    static func lowerCamel(_ name: String) -> String {
        let upper = name.prefix { $0.isUppercase }
        // `HTTPClient` becomes `httpClient`: all but the last of a run of capitals.
        let lowered = upper.count > 1 && upper.count < name.count ? upper.dropLast().count : upper.count
        return name.prefix(lowered).lowercased() + name.dropFirst(lowered)
    }

    static func relative(_ path: String, to directory: String) -> String {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
