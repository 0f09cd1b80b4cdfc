/// Builds the greeting for the caller of the current request.
///
/// Unique scope: a new greeter per resolution, but it receives the request's
/// cached ``RequestSession``. It counts itself in ``RequestLifetimes/greeters``.
public final class Greeter: Sendable {
    let session: RequestSession

    /// A greeter for the caller of `session`.
    public init(session: RequestSession) {
        self.session = session
        RequestLifetimes.greeters.made()
    }

    deinit {
        RequestLifetimes.greeters.released()
    }

    /// A greeting naming the user and the request.
    public func greet() -> String {
        "Hello, \(session.user.id) (\(session.requestID))"
    }
}
