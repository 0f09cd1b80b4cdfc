/// Joins what the symbol graphs say with what the source says: each entry gets the
/// `#if` condition its declaration sits under, and the factories of branches this
/// build left out are added from the source, inside their conditions. So the
/// catalog lists what the source declares, and is the same whichever machine,
/// platform or configuration writes it.
struct CatalogMerge {
    /// The source files of the modules catalogued, by module.
    let sources: [(module: String, file: SourceFile)]
    /// Treat every factory as declared on the main actor (`--main-actor`).
    let mainActorByDefault: Bool
    /// Read every factory under `#if` from the source, as a machine that compiles
    /// none of those branches does (`--conditional-from-source`, which
    /// scripts/check-catalog.sh uses to show the catalog is the same there).
    var conditionalFromSource = false

    /// What the catalog lists, and notes for the user.
    struct Result {
        var found: [FoundFactory] = []
        var skipped: [SkippedFactory] = []
        /// Lines to print after the summary: conditions the test target may not share,
        /// and declarations the source reads differently from the symbol graph.
        var notes: [String] = []
    }

    func merge(_ scan: FactoryScanner.Result) -> Result {
        let files = Dictionary(sources.map { ($0.file.path, $0.file) }, uniquingKeysWith: { first, _ in first })
        var result = Result()
        // The symbol graph gives no place for a private declaration: one that the
        // source declares under `#if` is added from the source, with its condition,
        // as on a machine that does not compile it.
        let conditional = Set(
            sources.flatMap { source in
                source.file.declarations.filter { $0.condition != nil }.map { "\(source.module)|\($0.container).\($0.property)" }
            })
        for var factory in scan.found where factory.location != nil || !conditional.contains("\(factory.module)|\(factory.name)")
        {
            if let (file, line) = place(factory.location, in: files) {
                factory.condition = file.condition(atLine: line)
                if factory.condition != nil, let note = difference(factory, file.declarations.first { $0.line == line }) {
                    result.notes.append(note)
                }
            }
            if conditionalFromSource && factory.condition != nil { continue }
            result.found.append(factory)
        }
        for var factory in scan.skipped
        where factory.location != nil || !conditional.contains("\(factory.module)|\(factory.name)") {
            if let (file, line) = place(factory.location, in: files) { factory.condition = file.condition(atLine: line) }
            if conditionalFromSource && factory.condition != nil { continue }
            result.skipped.append(factory)
        }
        let containers = scan.containers.union(sources.flatMap(\.file.containerTypes))
        for (module, file) in sources {
            for declaration in file.declarations where declaration.condition != nil {
                let location = "\(file.path):\(declaration.line)"
                guard conditionalFromSource || !scan.declared.contains("\(location):\(declaration.property)") else {
                    continue
                }
                add(declaration, module: module, location: location, containers: containers, to: &result)
            }
        }
        result.found.sort { ($0.module, $0.name, $0.condition ?? "") < ($1.module, $1.name, $1.condition ?? "") }
        result.skipped.sort { ($0.module, $0.name, $0.condition ?? "") < ($1.module, $1.name, $1.condition ?? "") }
        result.notes += customConditions(result)
        return result
    }

    /// A declaration of a branch the build left out, as the source declares it.
    private func add(
        _ declaration: SourceFile.Declaration, module: String, location: String, containers: Set<String>,
        to result: inout Result
    ) {
        let name = "\(declaration.container).\(declaration.property)"
        var reason: String?
        if declaration.isStatic {
            reason = SkipReason.isStatic
        } else if declaration.access == "private" || declaration.access == "fileprivate" {
            reason = SkipReason.unreachable
        } else if declaration.isInPrivateType {
            reason = SkipReason.privateContainer("private")
        } else if !containers.contains(declaration.container) {
            reason =
                "in a branch this build leaves out, and \(declaration.container) is not known here as a container "
                + "(Container, or a type that conforms to ManagedContainer or SharedContainer)"
        }
        if let reason {
            result.skipped.append(
                SkippedFactory(
                    module: module, name: name, access: declaration.access, reason: reason, location: location,
                    condition: declaration.condition))
            return
        }
        result.found.append(
            FoundFactory(
                module: module, container: declaration.container, property: declaration.property, kind: declaration.kind,
                access: declaration.access, isMainActor: mainActorByDefault || declaration.isMainActor,
                location: location, condition: declaration.condition))
    }

    /// The file and line of a `path:line` location, when the file is one of the sources.
    private func place(_ location: String?, in files: [String: SourceFile]) -> (SourceFile, Int)? {
        guard let location, let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]),
            let file = files[String(location[..<colon])]
        else { return nil }
        return (file, line)
    }

    /// Says so when the source reads a conditional declaration differently from the
    /// symbol graph: a catalog written where its branch is left out would differ.
    private func difference(_ factory: FoundFactory, _ declaration: SourceFile.Declaration?) -> String? {
        guard let declaration else {
            return "note: \(factory.name) (\(factory.location ?? factory.module)) is under #if \(factory.condition ?? ""), "
                + "but the source scan did not read its declaration: a catalog written where that branch is left "
                + "out would not list it"
        }
        var differences: [String] = []
        if declaration.container != factory.container { differences.append("container \(declaration.container)") }
        if declaration.kind != factory.kind { differences.append("kind \(declaration.kind.name)") }
        if declaration.access != factory.access { differences.append("access \(declaration.access)") }
        if !mainActorByDefault && declaration.isMainActor != factory.isMainActor {
            differences.append(declaration.isMainActor ? "@MainActor" : "not @MainActor")
        }
        guard !differences.isEmpty else { return nil }
        return "note: \(factory.name) (\(factory.location ?? factory.module)) reads as \(differences.joined(separator: ", ")) "
            + "in the source: a catalog written where its branch (#if \(factory.condition ?? "")) is left out would differ"
    }

    /// Notes for conditions that name a flag of the package's own (`FEATURE_X`):
    /// the test target compiles the catalog with its own flags.
    private func customConditions(_ result: Result) -> [String] {
        let conditions = Set(result.found.compactMap(\.condition) + result.skipped.compactMap(\.condition))
        let flags = Set(conditions.flatMap(Self.flags)).sorted()
        return flags.map { flag in
            "note: the catalog has entries under #if conditions that name \(flag); the test target compiles them with "
                + "its own flags: define \(flag) for it too (swiftSettings: [.define(\"\(flag)\")]) where the module has it"
        }
    }

    /// The flags a condition names, beside `DEBUG` and the platform conditions
    /// (`os(...)`, `canImport(...)`, ...), whose arguments are not flags.
    static func flags(in condition: String) -> [String] {
        var flags: [String] = []
        var characters = Substring(condition)
        while let first = characters.first {
            guard first.isLetter || first == "_" else {
                characters = characters.dropFirst()
                continue
            }
            let name = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            characters = characters.dropFirst(name.count)
            if characters.first == "(" {
                // A platform condition: its argument is not a flag.
                characters = characters.drop { $0 != ")" }
            } else if !["DEBUG", "true", "false"].contains(name) {
                flags.append(String(name))
            }
        }
        return flags
    }
}
