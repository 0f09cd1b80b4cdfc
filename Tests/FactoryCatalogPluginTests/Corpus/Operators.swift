// swift-format-ignore-file
// Scanner corpus (SourceScannerTests): operators that look like generics,
// generic types nested in a factory's type, and regex literals with braces and quotes.
import FactoryKit

final class OperatorCorpus: SharedContainer {
    static let shared = OperatorCorpus()
    let manager = ContainerManager()
}

struct CorpusVersion: Comparable {
    let major: Int
    static func < (lhs: CorpusVersion, rhs: CorpusVersion) -> Bool { lhs.major < rhs.major }
}

infix operator <~>: ComparisonPrecedence
func <~> (lhs: Int, rhs: Int) -> Bool { lhs < rhs && rhs > lhs }

extension OperatorCorpus {
    var comparison: Factory<Bool> { self { 1 < 2 && 3 > 2 } }
    var genericLooking: Factory<Bool> { self { CorpusVersion(major: 1) < CorpusVersion(major: 2) || 2 <~> 3 } }
    var shifted: Factory<Int> { self { (1 << 3) >> 1 } }
    var closureType: Factory<@Sendable (Int) -> Int> { self { { $0 >= 1 ? $0 : -$0 } } }
    var nestedGenerics: Factory<[String: [Int]]> { self { [:] } }
    var spelledGenerics: Factory<Dictionary<String, Set<Int>>> { self { [:] } }
    var parameterGenerics: ParameterFactory<Optional<Int>, Array<Int>> { self { $0.map { [$0] } ?? [] } }
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    var extendedRegex: Factory<Bool> { self { "a{\"".contains(#/\{ "\} var fakeInRegex: Factory<Int> \{/#) } }
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    var bareRegex: Factory<Bool> { self { "}".contains(/\}"{1}/) } }
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    var regexesInABody: Factory<Bool> {
        self {
            let text = "var fakeInBareRegex: Factory<Int> {"
            if text.contains(/var fakeInBareRegex: Factory<Int> \{/) { return true }
            return text.contains(/[\/}]/)
        }
    }
    var divisions: Factory<Int> { self { [8][0] / 2 / (4 / 2) + Int(8.0 / 2) / 1 } }
    var afterRegexes: Factory<Int> { self { 1 } }
}
