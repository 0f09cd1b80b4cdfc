import Foundation
import Testing

/// A factory the scanner must read in a corpus file, as it must read it.
struct ExpectedFactory: Sendable {
    /// `Container.property`, as the catalog names it.
    let name: String
    var condition: String? = nil
    var access = "internal"
    var isStatic = false
    var isMainActor = false
    var kind = "Factory"
}

/// A corpus file, with the factories the scanner must find in it and the names
/// that appear in it (in strings, comments, regex literals, macros, function bodies,
/// types that are not factories) that it must not find.
struct ScannerCase: Sendable, CustomTestStringConvertible {
    let file: String
    let finds: [ExpectedFactory]
    let neverFinds: [String]

    var testDescription: String { file }

    /// The corpus file's text, read from the source tree.
    var text: String {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/\(file)")
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    static let all: [ScannerCase] = [
        ScannerCase(
            file: "RawStrings.swift",
            finds: ["beforeRaw", "twoHashes", "rawInterpolation", "rawEscape", "rawMultiline", "label"].map {
                ExpectedFactory(name: "RawStringCorpus.\($0)")
            },
            neverFinds: ["fakeInRaw", "fakeAfterQuoteHash", "fakeAfterEscape", "fakeInRawMultiline"]),
        ScannerCase(
            file: "MultilineStrings.swift",
            finds: ["banner", "nestedInterpolation", "interpolationWithClosure", "label"].map {
                ExpectedFactory(name: "MultilineCorpus.\($0)")
            } + [ExpectedFactory(name: "MultilineCorpus.afterStrings")],
            neverFinds: ["fakeInMultiline", "fakeInNestedMultiline", "fakeInNestedInterpolation"]),
        ScannerCase(
            file: "Comments.swift",
            finds: [
                "afterNestedComment", "afterLineComment", "documented", "commentBeforeType", "divided", "slashesInString",
                "afterDocumentationBlock",
            ].map { ExpectedFactory(name: "CommentCorpus.\($0)") },
            neverFinds: ["fakeInNestedComment", "fakeInLineComment", "fakeInDocumentation", "fakeInDocumentationBlock"]),
        ScannerCase(
            file: "Conditions.swift",
            finds: [
                ExpectedFactory(name: "ConditionCorpus.linuxOnly", condition: "os(Linux)"),
                ExpectedFactory(name: "ConditionCorpus.linuxDebug", condition: "os(Linux) && DEBUG"),
                ExpectedFactory(name: "ConditionCorpus.linuxFlag", condition: "os(Linux) && !DEBUG && FACTORY_CORPUS_FLAG"),
                ExpectedFactory(name: "ConditionCorpus.linuxOther", condition: "os(Linux) && !DEBUG && !FACTORY_CORPUS_FLAG"),
                ExpectedFactory(name: "ConditionCorpus.apple", condition: "!os(Linux) && (os(macOS) || os(iOS))"),
                ExpectedFactory(name: "ConditionCorpus.elsewhere", condition: "!os(Linux) && !(os(macOS) || os(iOS))"),
                ExpectedFactory(name: "ConditionCorpus.unconditional"),
                ExpectedFactory(name: "ConditionCorpus.directiveInString"),
                ExpectedFactory(
                    name: "ConditionCorpus.aroundExtension",
                    condition: "!FACTORY_CORPUS_FLAG && (canImport(Glibc) || canImport(Darwin))"),
                ExpectedFactory(
                    name: "ConditionCorpus.aroundExtensionRelease",
                    condition: "!FACTORY_CORPUS_FLAG && (canImport(Glibc) || canImport(Darwin)) && !DEBUG"),
                ExpectedFactory(name: "ConditionCorpus.afterConditions"),
            ],
            neverFinds: ["fakeUnderFakeIf"]),
        ScannerCase(
            file: "Attributes.swift",
            finds: [
                ExpectedFactory(name: "AttributeCorpus.onMainActor", isMainActor: true),
                ExpectedFactory(name: "AttributeCorpus.deprecatedOne"),
                ExpectedFactory(name: "AttributeCorpus.availableOnMainActor", isMainActor: true),
                ExpectedFactory(name: "AttributeCorpus.staticOnMainActor", isStatic: true, isMainActor: true),
                ExpectedFactory(name: "AttributeCorpus.staticComputed", isStatic: true),
                ExpectedFactory(name: "AttributeCorpus.filePrivate", access: "fileprivate"),
                ExpectedFactory(name: "AttributeCorpus.qualified"),
                ExpectedFactory(name: "AttributeCorpus.qualifiedByProfiling"),
                ExpectedFactory(name: "AttributeCorpus.parameters", kind: "ParameterFactory"),
                ExpectedFactory(name: "AttributeCorpus.asynchronous", kind: "AsyncFactory"),
                ExpectedFactory(name: "AttributeCorpus.asyncParameters", kind: "AsyncParameterFactory"),
                ExpectedFactory(name: "AttributeCorpus.underMacros", condition: "FACTORY_CORPUS_MACROS"),
                ExpectedFactory(name: "AttributeCorpus.default"),
                ExpectedFactory(name: "AttributeCorpus.a raw identifier"),
                ExpectedFactory(name: "AttributeCorpus.afterIdentifiers"),
                ExpectedFactory(name: "AttributeCorpusHolder.privateSetter"),
                ExpectedFactory(name: "AttributeCorpusHolder.optionalFactory"),
            ],
            neverFinds: [
                "fakeInMessage", "fakeFromMacro", "notAFactory", "arrayOfFactories", "tupleOfFactories", "closureResult",
                "insideAFunction",
            ]),
        ScannerCase(
            file: "Operators.swift",
            finds: [
                "comparison", "genericLooking", "shifted", "closureType", "nestedGenerics", "spelledGenerics",
                "extendedRegex", "bareRegex", "regexesInABody", "divisions", "afterRegexes",
            ].map { ExpectedFactory(name: "OperatorCorpus.\($0)") } + [
                ExpectedFactory(name: "OperatorCorpus.parameterGenerics", kind: "ParameterFactory")
            ],
            neverFinds: ["fakeInRegex", "fakeInBareRegex"]),
    ]
}

@Suite struct SourceScannerTests {
    /// Each corpus file: exactly the factories it declares, each as declared, and
    /// none of the names its strings, comments and other look-alikes spell.
    @Test(arguments: ScannerCase.all)
    func readsTheCorpus(_ corpus: ScannerCase) throws {
        let source = SourceFile(path: corpus.file, text: try corpus.text)
        let found = Dictionary(
            source.declarations.map { ("\($0.container).\($0.property)", $0) }, uniquingKeysWith: { first, _ in first })
        let names = source.declarations.map { "\($0.container).\($0.property)" }
        #expect(names.count == Set(names).count, "read twice: \(names)")
        #expect(Set(names) == Set(corpus.finds.map(\.name)))
        for expected in corpus.finds {
            guard let declaration = found[expected.name] else { continue }
            #expect(declaration.condition == expected.condition, "\(expected.name)")
            #expect(declaration.access == expected.access, "\(expected.name)")
            #expect(declaration.isStatic == expected.isStatic, "\(expected.name)")
            #expect(declaration.isMainActor == expected.isMainActor, "\(expected.name)")
            #expect(declaration.kind.name == expected.kind, "\(expected.name)")
            // The condition of the line, as the catalog asks for a place the symbol graph gives.
            #expect(source.condition(atLine: declaration.line) == expected.condition, "\(expected.name)")
        }
        for name in corpus.neverFinds {
            #expect(!source.declarations.contains { $0.property == name }, "read \(name), which is no factory property")
        }
    }

    /// The lines the scanner gives are those of the properties' names.
    @Test func givesTheLineOfEachName() throws {
        let source = SourceFile(
            path: "Lines.swift",
            text: """
                extension Container {
                    @MainActor
                    var first: Factory<Int> { self { 1 } }

                    /* a comment
                       over two lines */ var second:
                        Factory<Int> { self { 2 } }
                }
                """)
        #expect(source.declarations.map(\.property) == ["first", "second"])
        #expect(source.declarations.map(\.line) == [3, 6])
        #expect(source.declarations.first?.isMainActor == true)
    }

    /// Types nested in extensions and types, containers by what they inherit.
    @Test func namesNestedTypesAndTellsContainers() {
        let source = SourceFile(
            path: "Nested.swift",
            text: """
                final class Outer: SharedContainer {
                    final class Inner: FactoryKit.ManagedContainer {
                        var deep: Factory<Int> { self { 1 } }
                    }
                    class var notAType: Int { 1 }
                }
                extension Outer.Inner {
                    var extended: Factory<Int> { self { 2 } }
                }
                private struct Hidden {
                    struct Within {
                        var hidden: Factory<Int>
                    }
                }
                """)
        #expect(
            source.declarations.map { "\($0.container).\($0.property)" } == [
                "Outer.Inner.deep", "Outer.Inner.extended", "Hidden.Within.hidden",
            ])
        #expect(source.declarations.map(\.isInPrivateType) == [false, false, true])
        #expect(source.containerTypes == ["Outer", "Outer.Inner"])
    }
}
