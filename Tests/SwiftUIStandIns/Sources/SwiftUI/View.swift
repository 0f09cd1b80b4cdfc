/// A type that represents part of your app's user interface.
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency
    var body: Self.Body { get }
}

extension Never: View {
    /// The content and behavior of the view.
    public var body: Never { fatalError("Never has no body") }
}
