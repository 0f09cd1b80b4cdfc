/// A custom parameter attribute that constructs views from closures.
@resultBuilder
public struct ViewBuilder {
    /// Builds an expression within the builder.
    public static func buildExpression<Content: View>(_ content: Content) -> Content {
        content
    }

    /// Builds an empty view from a block containing no statements.
    public static func buildBlock() -> EmptyView {
        EmptyView()
    }

    /// Passes a single view written as a child view through unmodified.
    public static func buildBlock<Content: View>(_ content: Content) -> Content {
        content
    }

    /// Combines the views of a block into one.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }

    /// Produces an optional view for conditional statements in multi-statement
    /// closures that's only visible when the condition evaluates to true.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? {
        content
    }

    /// Produces content for a conditional statement in a multi-statement closure
    /// when the condition is true.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    /// Produces content for a conditional statement in a multi-statement closure
    /// when the condition is false.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }
}

/// View content that shows one of two possible children.
@frozen
public struct _ConditionalContent<TrueContent, FalseContent> {
    @usableFromInline
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    @usableFromInline
    let storage: Storage

    @usableFromInline
    init(storage: Storage) {
        self.storage = storage
    }
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    /// The content and behavior of the view.
    public var body: Never { fatalError("_ConditionalContent is a primitive view") }
}
