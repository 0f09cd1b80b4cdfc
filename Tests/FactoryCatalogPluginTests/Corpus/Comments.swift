// swift-format-ignore-file
// Scanner corpus (SourceScannerTests): nested block comments, line comments that
// open a block comment, documentation with code, and things that only look like comments.
import FactoryKit

final class CommentCorpus: SharedContainer {
    static let shared = CommentCorpus()
    let manager = ContainerManager()
}

extension CommentCorpus {
    /* a block comment /* nested, with } and var fakeInNestedComment: Factory<Int> { */ still a comment { */
    var afterNestedComment: Factory<Int> { self { 1 } }
    // var fakeInLineComment: Factory<Int> { /* does not open a comment
    var afterLineComment: Factory<Int> { self { 2 } }
    /// Documentation with code: `var fakeInDocumentation: Factory<Int> { self { 3 } }` and a brace {
    var documented: Factory<Int> { self { /* } */ 3 } }
    var commentBeforeType: /* Factory<String> */ Factory<Int> { self { 4 } }
    var divided: Factory<Int> { self { 8 / 2 /* after a division */ / 2 } }
    var slashesInString: Factory<String> { self { "http://example.com/*not a comment*/" } }
    /**
     A documentation block comment: var fakeInDocumentationBlock: Factory<Int> {
     */
    var afterDocumentationBlock: Factory<Int> { self { 5 } }
}
