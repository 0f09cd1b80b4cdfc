// The few concrete views the miniature app needs. Each is a primitive view (its
// body is `Never`); the stand-in host reads what they show (Host.swift).

/// A view that doesn't contain any content.
@frozen
public struct EmptyView: View, Sendable {
    /// Creates an empty view.
    @inlinable
    nonisolated public init() {}

    /// The content and behavior of the view.
    public var body: Never { fatalError("EmptyView is a primitive view") }
}

/// A view that displays one or more lines of read-only text.
@frozen
public struct Text: Equatable, Sendable {
    package let content: String

    /// Creates a text view that displays a string literal without localization.
    nonisolated public init(verbatim content: String) {
        self.content = content
    }

    /// Creates a text view that displays a stored string without localization.
    nonisolated public init<S: StringProtocol>(_ content: S) {
        self.content = String(content)
    }
}

extension Text: View {
    /// The content and behavior of the view.
    public var body: Never { fatalError("Text is a primitive view") }
}

/// A control that displays an editable text interface.
public struct TextField<Label: View>: View {
    package let title: String
    package let text: Binding<String>

    /// The content and behavior of the view.
    public var body: Never { fatalError("TextField is a primitive view") }
}

extension TextField where Label == Text {
    /// Creates a text field with a text label generated from a title string.
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.title = String(title)
        self.text = text
    }
}

/// A View created from a swift tuple of View values.
@frozen
public struct TupleView<T> {
    /// The tuple of views.
    public var value: T

    /// Creates a tuple view.
    @inlinable
    public init(_ value: T) {
        self.value = value
    }
}

// In an extension, as the conformance does not make the type main-actor isolated.
extension TupleView: View {
    /// The content and behavior of the view.
    public var body: Never { fatalError("TupleView is a primitive view") }
}

extension Optional: View where Wrapped: View {
    /// The content and behavior of the view.
    public var body: Never { fatalError("Optional is a primitive view") }
}
