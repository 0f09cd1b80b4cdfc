/// Builds the greeting for the caller of the current request.
///
/// Unique scope: a new greeter per resolution, but it receives the request's
/// cached ``RequestSession``.
public struct Greeter: Sendable {
    let session: RequestSession

    /// A greeting naming the user and the request.
    public func greet() -> String {
        "Hello, \(session.user.id) (\(session.requestID))"
    }
}
