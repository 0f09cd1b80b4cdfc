import Foundation
import PackagePlugin

/// `swift package factory-catalog --target T [--output PATH] [--name NAME] [--main-actor] [--check]`
///
/// Asks SwiftPM for the symbol graph of target T (which builds it), finds every
/// factory of every container in it (``FactoryScanner``), and writes the catalog
/// (``CatalogFile``) into T's test target, or, with `--check`, compares it with the
/// file there and fails naming every factory that is missing or stale.
@main
struct FactoryCatalogCommand: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The command line, read.
    struct Options {
        let target: String
        let output: String?
        let name: String?
        let check: Bool
        /// The target is built with `defaultIsolation(MainActor.self)`: its symbol graph does
        /// not mark the properties that setting isolates, so every key path is made on the main actor.
        let mainActor: Bool

        init(_ arguments: [String]) throws {
            var extractor = ArgumentExtractor(arguments)
            let targets = extractor.extractOption(named: "target")
            output = extractor.extractOption(named: "output").last
            name = extractor.extractOption(named: "name").last
            check = extractor.extractFlag(named: "check") > 0
            mainActor = extractor.extractFlag(named: "main-actor") > 0
            guard extractor.remainingArguments.isEmpty else {
                throw Failure(
                    description: "factory-catalog: unknown arguments \(extractor.remainingArguments); usage: \(usage)")
            }
            guard targets.count == 1, let target = targets.first else {
                throw Failure(description: "factory-catalog: name one target with --target; usage: \(usage)")
            }
            self.target = target
        }

        /// The arguments that make the same catalog, as the file's header and messages show them.
        var shown: String {
            var shown = "--target \(target)"
            if let output { shown += " --output \(output)" }
            if let name { shown += " --name \(name)" }
            if mainActor { shown += " --main-actor" }
            return shown
        }
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let options = try Options(arguments)
        guard let target = try context.package.targets(named: [options.target]).first as? SwiftSourceModuleTarget else {
            throw Failure(description: "factory-catalog: \(options.target) is not a Swift target of this package")
        }
        let packageDirectory = context.package.directoryURL.path
        let output = try outputURL(options.output, for: target, in: context.package)
        let (found, skipped) = try factories(of: target, options, packageDirectory: packageDirectory)
        let file = CatalogFile(
            module: target.moduleName, propertyName: options.name ?? Self.lowerCamel(target.moduleName), found: found,
            skipped: skipped, arguments: options.shown)
        let shown = Self.relative(output.path, to: packageDirectory)
        let containers = Set(found.map(\.container)).count
        let summary =
            "\(found.count) \(found.count == 1 ? "factory" : "factories") of \(containers) "
            + "\(containers == 1 ? "container" : "containers"), \(skipped.count) skipped"
        if options.check {
            try Self.check(file, at: output, shown: shown, arguments: options.shown)
            print("factory-catalog: \(shown) is current: \(summary)")
        } else {
            let text = file.render()
            // Left untouched when current, so that the test target is not rebuilt for nothing.
            if (try? String(contentsOf: output, encoding: .utf8)) != text {
                try FileManager.default.createDirectory(
                    at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: output, atomically: true, encoding: .utf8)
            }
            print("factory-catalog: wrote \(shown): \(summary)")
        }
        for factory in skipped {
            print("  skipped \(factory.name) (\(factory.access)\(factory.location.map { ", \($0)" } ?? "")): \(factory.reason)")
        }
    }

    /// Builds `target`, reads its symbol graph and finds its factories.
    private func factories(
        of target: SwiftSourceModuleTarget, _ options: Options, packageDirectory: String
    ) throws -> (found: [FoundFactory], skipped: [SkippedFactory]) {
        // Internal factories are what an app declares most; private ones are asked
        // for too, to report them as skipped rather than leave them out unseen.
        let graphOptions = PackageManager.SymbolGraphOptions(
            minimumAccessLevel: .private, includeInheritedDocs: false, includeSynthesized: false, includeSPI: true,
            emitExtensionBlocks: true)
        let result = try packageManager.getSymbolGraph(for: target, options: graphOptions)
        let graphs = try SymbolGraph.load(module: target.moduleName, from: result.directoryURL)
        guard !graphs.isEmpty else {
            throw Failure(
                description: "factory-catalog: no symbol graph of \(target.moduleName) in \(result.directoryURL.path)")
        }
        return FactoryScanner(graphs: graphs, packageDirectory: packageDirectory, mainActorByDefault: options.mainActor)
            .scan()
    }

    static let usage =
        "swift package [--allow-writing-to-package-directory] factory-catalog --target TARGET "
        + "[--output PATH] [--name PROPERTY] [--main-actor] [--check]"

    /// Compares the catalog at `url` with what the code gives; throws, naming each
    /// difference, when they differ.
    static func check(_ file: CatalogFile, at url: URL, shown: String, arguments: String) throws {
        let command = "swift package --allow-writing-to-package-directory factory-catalog \(arguments)"
        guard let existing = try? String(contentsOf: url, encoding: .utf8) else {
            throw Failure(description: "factory-catalog: there is no catalog at \(shown); generate it: \(command)")
        }
        let expected = file.render()
        guard existing != expected else { return }
        let old = CatalogFile.entries(of: existing)
        let new = CatalogFile.entries(of: expected)
        var lines = ["factory-catalog: \(shown) does not match target \(file.module):"]
        for factory in file.found where old[factory.name] == nil {
            lines.append(
                "  missing: \(factory.name), \(factory.access) \(factory.kind.rawValue)"
                    + (factory.location.map { " (\($0))" } ?? ""))
        }
        for factory in file.skipped where old[factory.name] == nil {
            lines.append("  missing: \(factory.name), skipped: \(factory.reason)")
        }
        for name in old.keys.sorted() where new[name] == nil {
            lines.append("  stale: \(name), listed in the catalog but no longer declared")
        }
        for name in old.keys.sorted() where new[name] != nil && new[name] != old[name] {
            lines.append("  changed: \(name): the catalog says `\(old[name]!)`, the code gives `\(new[name]!)`")
        }
        if lines.count == 1 { lines.append("  the factories are the same, the rest of the file differs") }
        // One error, details included: SwiftPM prints it after whatever the plugin printed.
        lines.append("Regenerate it: \(command)")
        throw Failure(description: lines.joined(separator: "\n"))
    }

    /// `--output`, relative to the package, or the catalog file of the one test
    /// target that depends on `target`.
    private func outputURL(_ option: String?, for target: SwiftSourceModuleTarget, in package: Package) throws -> URL {
        if let option {
            return option.hasPrefix("/")
                ? URL(fileURLWithPath: option) : package.directoryURL.appendingPathComponent(option)
        }
        let tests = package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter { test in
            test.kind == .test
                && test.dependencies.contains {
                    if case .target(let dependency) = $0 { return dependency.id == target.id }
                    return false
                }
        }
        guard tests.count == 1, let test = tests.first else {
            let names = tests.map(\.name).joined(separator: ", ")
            throw Failure(
                description: "factory-catalog: \(tests.isEmpty ? "no test target depends" : "test targets \(names) depend")"
                    + " on \(target.name); say where the catalog goes with --output Tests/<TestTarget>/FactoryCatalog+\(target.name).swift"
            )
        }
        return test.directoryURL.appendingPathComponent("FactoryCatalog+\(target.moduleName).swift")
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
