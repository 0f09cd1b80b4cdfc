import Foundation

/// The Swift modules of a SwiftPM build, read from the build's manifest
/// (`<scratch>/debug.yaml` or `release.yaml`): each module's compile command, its
/// sources and `-D` flags, and what `swift-symbolgraph-extract` needs to load it.
struct BuildDescription {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Module {
        let name: String
        /// Absolute paths of the module's Swift sources, as the build compiled them.
        let sources: [String]
        let flags: Set<String>
        /// The search paths and target of the compile command, for the extractor.
        let loadArguments: [String]
        /// Built with `defaultIsolation(MainActor.self)`: the symbol graph does not mark what it isolates.
        let isMainActorByDefault: Bool
    }

    let modules: [Module]
    /// `swift-symbolgraph-extract`, beside the compiler the build used.
    let extractor: String
    /// Where the build keeps its `.swiftmodule`s.
    let modulesDirectory: String

    /// The build whose manifest is `manifest`.
    init(manifest: URL) throws {
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else {
            throw Failure(description: "no build manifest at \(manifest.path)")
        }
        var modules: [Module] = []
        var compiler: String?
        var modulesDirectory: String?
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("args: [") else { continue }
            let arguments = try JSONDecoder().decode([String].self, from: Data(trimmed.dropFirst("args: ".count).utf8))
            // Compile commands only (`-c`), not link commands.
            guard let first = arguments.first, first.hasSuffix("swiftc"), arguments.contains("-c"),
                let nameIndex = arguments.firstIndex(of: "-module-name"), nameIndex + 1 < arguments.count
            else { continue }
            compiler = first
            if let index = arguments.firstIndex(of: "-emit-module-path"), index + 1 < arguments.count {
                modulesDirectory = URL(fileURLWithPath: arguments[index + 1]).deletingLastPathComponent().path
            }
            modules.append(Self.module(named: arguments[nameIndex + 1], arguments))
        }
        guard let compiler, let modulesDirectory else {
            throw Failure(description: "no Swift compile command in \(manifest.path)")
        }
        self.modules = modules
        self.modulesDirectory = modulesDirectory
        extractor =
            URL(fileURLWithPath: compiler).deletingLastPathComponent().appendingPathComponent("swift-symbolgraph-extract")
            .path
    }

    private static func module(named name: String, _ arguments: [String]) -> Module {
        var sources: [String] = []
        var flags: Set<String> = []
        var load: [String] = []
        var index = 1
        var mainActor = false
        let paired: Set<String> = [
            "-I", "-F", "-Xcc", "-target", "-sdk", "-resource-dir", "-plugin-path", "-Fsystem", "-Isystem",
        ]
        while index < arguments.count {
            let argument = arguments[index]
            if paired.contains(argument), index + 1 < arguments.count {
                load += [argument, arguments[index + 1]]
                index += 2
                continue
            }
            if argument == "-default-isolation", index + 1 < arguments.count {
                mainActor = arguments[index + 1] == "MainActor"
            } else if argument.hasPrefix("-D"), argument.count > 2 {
                flags.insert(String(argument.dropFirst(2)))
            } else if argument.hasPrefix("@") {
                // Missing for a module the manifest plans but this build never compiled
                // (another package's target nothing here depends on): it has no sources then.
                let list = (try? String(contentsOfFile: String(argument.dropFirst()), encoding: .utf8)) ?? ""
                sources += list.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".swift") }
            } else if argument.hasSuffix(".swift") && !argument.hasPrefix("-") {
                sources.append(argument)
            }
            index += 1
        }
        return Module(name: name, sources: sources, flags: flags, loadArguments: load, isMainActorByDefault: mainActor)
    }

    /// The module's symbol graphs (its own and one per module it extends), with every
    /// declaration down to `private`, as the catalog plugin asks SwiftPM for them.
    func symbolGraphs(of module: Module) throws -> [SymbolGraph] {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        throw Failure(description: "no swift-symbolgraph-extract to run on this platform")
        #else
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-graphs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: extractor)
        process.arguments =
            [
                "-module-name", module.name, "-I", modulesDirectory, "-minimum-access-level", "private",
                "-emit-extension-block-symbols", "-skip-synthesized-members", "-include-spi-symbols",
                "-output-dir", output.path,
            ] + module.loadArguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "swift-symbolgraph-extract failed for \(module.name): \(message)")
        }
        return try SymbolGraph.load(module: module.name, from: output)
        #endif
    }
}
