import Foundation
import PackagePlugin

/// Which modules a catalog covers and where it is written.
///
/// - `--target T`: module T, into the one test target that depends on T directly
///   (or `--output`).
/// - `--test-target T`: every Swift module of this package that test target T
///   depends on, directly or through other targets (not those of other packages,
///   nor macros), into T.
struct CatalogScope {
    let subject: CatalogFile.Subject
    let modules: [SwiftSourceModuleTarget]
    let output: URL

    /// The module or test target the catalog's property is named after.
    var subjectName: String {
        switch subject {
        case .module(let module): module
        case .testTarget(let target, _): target
        }
    }

    init(_ options: FactoryCatalogCommand.Options, in package: Package) throws {
        let sourceModules = package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
        if let name = options.testTarget {
            guard let test = sourceModules.first(where: { $0.name == name && $0.kind == .test }) else {
                let tests = sourceModules.filter { $0.kind == .test }.map(\.name).sorted()
                throw FactoryCatalogCommand.Failure(
                    description: "factory-catalog: \(name) is not a test target of this package; its test targets: "
                        + (tests.isEmpty ? "none" : tests.joined(separator: ", ")))
            }
            let ids = Set(sourceModules.map(\.id))
            modules = test.recursiveTargetDependencies.compactMap { $0 as? SwiftSourceModuleTarget }
                .filter { ids.contains($0.id) && ($0.kind == .generic || $0.kind == .executable) }
                .sorted { $0.moduleName < $1.moduleName }
            guard !modules.isEmpty else {
                throw FactoryCatalogCommand.Failure(
                    description: "factory-catalog: \(name) depends on no Swift target of this package: nothing to catalog")
            }
            subject = .testTarget(test.name, modules: modules.map(\.moduleName))
            output =
                Self.url(options.output, in: package)
                ?? test.directoryURL.appendingPathComponent("FactoryCatalog+\(test.name).swift")
        } else {
            let name = options.target ?? ""
            guard let target = sourceModules.first(where: { $0.name == name }), target.kind != .test else {
                throw FactoryCatalogCommand.Failure(
                    description: "factory-catalog: \(name) is not a Swift target of this package (for a test target, "
                        + "use --test-target \(name))")
            }
            modules = [target]
            subject = .module(target.moduleName)
            output = try Self.url(options.output, in: package) ?? Self.testTargetFile(of: target, among: sourceModules)
        }
    }

    private static func url(_ option: String?, in package: Package) -> URL? {
        guard let option else { return nil }
        return option.hasPrefix("/") ? URL(fileURLWithPath: option) : package.directoryURL.appendingPathComponent(option)
    }

    /// The catalog file of the one test target that depends on `target` directly.
    private static func testTargetFile(
        of target: SwiftSourceModuleTarget, among targets: [SwiftSourceModuleTarget]
    ) throws
        -> URL
    {
        let tests = targets.filter { $0.kind == .test }
        let direct = tests.filter { test in
            test.dependencies.contains {
                if case .target(let dependency) = $0 { return dependency.id == target.id }
                return false
            }
        }
        if direct.count == 1, let test = direct.first {
            return test.directoryURL.appendingPathComponent("FactoryCatalog+\(target.moduleName).swift")
        }
        let file = "FactoryCatalog+\(target.name).swift"
        if direct.count > 1 {
            let names = direct.map(\.name).sorted().joined(separator: ", ")
            throw FactoryCatalogCommand.Failure(
                description: "factory-catalog: test targets \(names) depend on \(target.name); say where the catalog goes "
                    + "with --output Tests/<TestTarget>/\(file)")
        }
        let reaching = tests.filter { $0.recursiveTargetDependencies.contains { $0.id == target.id } }.map(\.name).sorted()
        guard let first = reaching.first else {
            throw FactoryCatalogCommand.Failure(
                description: "factory-catalog: no test target depends on \(target.name); add one, or say where the "
                    + "catalog goes with --output Tests/<TestTarget>/\(file)")
        }
        throw FactoryCatalogCommand.Failure(
            description: "factory-catalog: no test target depends on \(target.name) directly; "
                + "\(reaching.joined(separator: ", ")) \(reaching.count == 1 ? "reaches" : "reach") it through other "
                + "targets. Catalog every module a test target reaches with --test-target \(first), or say where "
                + "this one goes with --output Tests/\(first)/\(file)")
    }
}
