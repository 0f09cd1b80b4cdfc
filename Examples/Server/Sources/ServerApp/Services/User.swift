/// The caller of a request, taken from its `X-User` header.
public struct User: Sendable, Hashable, Codable {
    /// The user's name as sent in the header.
    public let id: String

    /// Creates a user.
    public init(id: String) {
        self.id = id
    }

    /// The user of a request that sent no `X-User` header.
    public static let anonymous = User(id: "anonymous")
}
