/// What a view shows, as the stand-in host reads it: its texts and text fields, in
/// order. Not SwiftUI's API: the tests' window on a view.
package struct Rendering {
    /// Every `Text`'s string.
    package var texts: [String] = []
    /// Every `TextField`, by title.
    package var fields: [(title: String, text: Binding<String>)] = []

    /// The binding of the text field titled `title`.
    package func field(_ title: String) -> Binding<String>? {
        fields.first { $0.title == title }?.text
    }
}

/// Evaluates views as SwiftUI would install them: a custom view's body, then what
/// it holds, depth first. No layout, no view graph: a view value is evaluated each
/// time it is rendered, and its state lives as long as the value (see `State`).
@MainActor
package enum StandInHost {
    /// Evaluates `view` and everything in it.
    package static func render<V: View>(_ view: V) -> Rendering {
        var rendering = Rendering()
        visit(view, into: &rendering)
        return rendering
    }

    private static func visit<V: View>(_ view: V, into rendering: inout Rendering) {
        switch view {
        case let text as Text:
            rendering.texts.append(text.content)
        case let field as TextField<Text>:
            rendering.fields.append((field.title, field.text))
        case is EmptyView:
            break
        default:
            if V.Body.self == Never.self {
                // TupleView, Optional and _ConditionalContent: what they hold, in order.
                for child in Mirror(reflecting: view).children.flatMap(children) {
                    visit(child, into: &rendering)
                }
            } else {
                visit(view.body, into: &rendering)
            }
        }
    }

    private static func children(_ child: Mirror.Child) -> [any View] {
        if let view = child.value as? any View { return [view] }
        // A TupleView's tuple of views, or a _ConditionalContent's case.
        return Mirror(reflecting: child.value).children.flatMap(children)
    }
}
