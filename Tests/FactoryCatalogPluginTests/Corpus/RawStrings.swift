// swift-format-ignore-file
// Scanner corpus (SourceScannerTests): raw strings whose contents look like
// declarations, braces and string ends. Compiled, so that it is Swift.
import FactoryKit

final class RawStringCorpus: SharedContainer {
    static let shared = RawStringCorpus()
    let manager = ContainerManager()
}

extension RawStringCorpus {
    var beforeRaw: Factory<String> { self { #"a "quoted" } brace, and var fakeInRaw: Factory<String> { "# } }
    var twoHashes: Factory<String> { self { ##"a "# that does not end it } var fakeAfterQuoteHash: Factory<String> {"## } }
    var rawInterpolation: Factory<String> { self { #"\#(self.label()) and \( is no interpolation } "# } }
    var rawEscape: Factory<String> { self { #"a backslash \" and a quote " } var fakeAfterEscape: Factory<String>"# } }
    var rawMultiline: Factory<String> {
        self {
            #"""
            """ does not end it, nor does "# }
            var fakeInRawMultiline: Factory<String> { self { "" } }
            \#(self.label()) \(not interpolated {
            """#
        }
    }
    var label: Factory<String> { self { "label" } }
}
