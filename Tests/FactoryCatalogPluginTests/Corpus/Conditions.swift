// swift-format-ignore-file
// Scanner corpus (SourceScannerTests): `#if` inside `#if`, `#elseif`, `#else`,
// conditions with `||` and `!`, an `#if` around a whole extension, and text in
// a string that looks like a directive.
import FactoryKit

final class ConditionCorpus: SharedContainer {
    static let shared = ConditionCorpus()
    let manager = ContainerManager()
}

extension ConditionCorpus {
    #if os(Linux)
    var linuxOnly: Factory<Int> { self { 1 } }
    #if DEBUG
    var linuxDebug: Factory<Int> { self { 2 } }
    #elseif FACTORY_CORPUS_FLAG // a comment after the condition
    var linuxFlag: Factory<Int> { self { 3 } }
    #else
    var linuxOther: Factory<Int> { self { 4 } }
    #endif
    #elseif os(macOS) || os(iOS)
    var apple: Factory<Int> { self { 5 } }
    #else
    var elsewhere: Factory<Int> { self { 6 } }
    #endif  // os(Linux)
    var unconditional: Factory<Int> { self { 7 } }
    var directiveInString: Factory<String> {
        self {
            """
            #if FACTORY_CORPUS_FAKE
            var fakeUnderFakeIf: Factory<Int> { self { 8 } }
            #endif
            """
        }
    }
}

#if !FACTORY_CORPUS_FLAG && (canImport(Glibc) || canImport(Darwin))
extension ConditionCorpus {
    var aroundExtension: Factory<Int> { self { 9 } }
    #if !DEBUG
    var aroundExtensionRelease: Factory<Int> { self { 10 } }
    #endif
}
#endif

extension ConditionCorpus {
    var afterConditions: Factory<Int> { self { 11 } }
}
