// swift-format-ignore-file
// Scanner corpus (SourceScannerTests): attributes, modifiers and macros on a
// factory, and properties that are not factories though a factory type appears
// in their declaration.
import FactoryKit
import FactoryProfiling

final class AttributeCorpus: SharedContainer {
    static let shared = AttributeCorpus()
    let manager = ContainerManager()
}

extension AttributeCorpus {
    @MainActor var onMainActor: Factory<Int> { self { @MainActor in 1 } }
    @available(*, deprecated, message: "use { the other } one, not var fakeInMessage: Factory<Int> {")
    var deprecatedOne: Factory<Int> { self { 2 } }
    @available(macOS 10.15, iOS 13, *) @MainActor
    var availableOnMainActor: Factory<Int> { self { @MainActor in 3 } }
    @preconcurrency @MainActor
    static var staticOnMainActor: Factory<Int> { shared.onMainActor }
    static var staticComputed: Factory<Int> { Factory(shared) { 4 } }
    fileprivate var filePrivate: Factory<Int> { self { 5 } }
    var qualified: FactoryKit.Factory<Int> { self { 6 } }
    var qualifiedByProfiling: FactoryProfiling.Factory<Int> { self { 11 } }
    var parameters: ParameterFactory<(Int, String), String> { self { "\($0.0)\($0.1)" } }
    var asynchronous: AsyncFactory<Int> { self { 7 } }
    var asyncParameters: AsyncParameterFactory<Int, Int> { self { $0 } }
    #if FACTORY_CORPUS_MACROS
    @Observed @Corpus(value: "}", transform: { $0 + "{" })
    var underMacros: Factory<Int> { self { #stringify({ "}" }) } }
    #corpusDeclarations(named: "var fakeFromMacro: Factory<Int> {")
    #endif
    var `default`: Factory<Int> { self { 8 } }
    var `a raw identifier`: Factory<Int> { self { 9 } }
    var afterIdentifiers: Factory<Int> { self { 10 } }
}

/// Not a container: its factory-typed properties are declarations all the same.
struct AttributeCorpusHolder {
    private(set) var privateSetter: Factory<Int>
    var optionalFactory: Factory<Int>?
    let notAFactory: @Sendable () -> Factory<Int>
    var arrayOfFactories: [Factory<Int>]
    var tupleOfFactories: (Factory<Int>, Factory<Int>)
    var closureResult: () -> Factory<Int> { { AttributeCorpus.shared.qualified } }

    func local() -> Int {
        struct Local {
            var insideAFunction: Factory<Int> { AttributeCorpus.shared.filePrivate }
        }
        let closure = { (value: Factory<Int>) in value }
        return closure(Local().insideAFunction)()
    }
}
