// Every declaration of this module is isolated to the main actor by default
// (`.defaultIsolation(MainActor.self)` in Package.swift): none of these types
// says `@MainActor`, yet all of them are.

/// Makes the greeting a screen shows.
public protocol GreetingService: AnyObject {
    /// The greeting for `name`.
    func greeting(for name: String) -> String
}

/// The greeting service the app ships with.
public final class LiveGreetingService: GreetingService {
    /// Creates the service.
    public init() {}

    /// `Hello, <name>!`
    public func greeting(for name: String) -> String {
        "Hello, \(name)!"
    }
}

/// Who is signed in; one per process (a `.singleton` factory).
public final class SessionStore {
    /// The signed-in user's name, or `nil`.
    public private(set) var userName: String?
    /// A number that tells instances apart in the demo's output.
    public let instanceNumber: Int

    private static var instancesMade = 0

    /// Creates an empty session; counts instances so the demo can show there is only one.
    public init() {
        Self.instancesMade += 1
        instanceNumber = Self.instancesMade
    }

    /// Signs `name` in.
    public func signIn(_ name: String) {
        userName = name
    }
}

/// Formats counts for the screen; one per container (a `.cached` factory).
public final class CountFormatter {
    /// A number that tells instances apart in the demo's output.
    public let instanceNumber: Int

    private static var instancesMade = 0

    /// Creates a formatter; counts instances so the demo can show caching.
    public init() {
        Self.instancesMade += 1
        instanceNumber = Self.instancesMade
    }

    /// `1 item`, `2 items`, ...
    public func format(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }
}

/// What the app reports about its build. `nonisolated` opts it out of the
/// module's default main-actor isolation, so any thread may make and use one.
nonisolated public struct BuildInfo: Sendable {
    /// The version string.
    public let version: String

    /// Creates the description of build `version`.
    public init(version: String) {
        self.version = version
    }
}
