import HTTPTypes

extension HTTPField.Name {
    /// The caller's name; missing means ``User/anonymous``.
    public static var xUser: Self { Self("X-User")! }
    /// The request's identifier; the server makes one up when it is missing.
    public static var xRequestID: Self { Self("X-Request-ID")! }
    /// `1` logs every resolution the request makes (`manager.trace`).
    public static var xTrace: Self { Self("X-Trace")! }
}
