// swift-format-ignore-file
// Scanner corpus (SourceScannerTests): multi-line strings with interpolations,
// strings inside the interpolations, and escaped quotes.
import FactoryKit

final class MultilineCorpus: SharedContainer {
    static let shared = MultilineCorpus()
    let manager = ContainerManager()
}

extension MultilineCorpus {
    var banner: Factory<String> {
        self {
            """
            var fakeInMultiline: Factory<String> { self { "" } }
            } } {
            \(self.label()) and \("}") and \(["{", "}"].joined(separator: "\""))
            \"""
            \(["a", """
                } var fakeInNestedMultiline: Factory<String> {
                """].joined())
            """
        }
    }
    var nestedInterpolation: Factory<String> {
        self { "\("\("{" + "var fakeInNestedInterpolation: Factory<String>")")" }
    }
    var interpolationWithClosure: Factory<String> {
        self { "\([1, 2].map { "\($0) }" }.joined())" }
    }
    var label: Factory<String> { self { "label" } }
    var afterStrings: Factory<Int> { self { 1 } }
}
