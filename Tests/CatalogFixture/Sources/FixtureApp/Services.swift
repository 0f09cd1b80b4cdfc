// The fixture's services: small types whose only job is to be built.

/// The fixture's clock.
public final class Clock: Sendable {
    init() {}
}

/// The fixture's API client, the one public service.
public final class API: Sendable {
    let clock: Clock

    init(clock: Clock) {
        self.clock = clock
    }
}

final class Feed: Sendable {
    let api: API

    init(api: API) {
        self.api = api
    }
}

final class Greeter: Sendable {
    let name: String

    init(name: String) {
        self.name = name
    }
}

final class Pager: Sendable {
    let page: Int

    init(page: Int) {
        self.page = page
    }
}

final class Report: Sendable {
    let period: String

    init(period: String) {
        self.period = period
    }
}

final class Store: Sendable {}

final class CycleA: Sendable {
    init(b: CycleB) {}
}

final class CycleB: Sendable {
    init(a: CycleA) {}
}

final class Session: Sendable {}

final class AuditLog: Sendable {
    let session: Session

    init(session: Session) {
        self.session = session
    }
}

protocol Analytics: Sendable {}

final class Tracker: Sendable {
    let analytics: (any Analytics)?

    init(analytics: (any Analytics)?) {
        self.analytics = analytics
    }
}

enum DatabaseError: Error {
    case unreachable(host: String)
}

final class Database: Sendable {
    static func connect(host: String) async throws -> Database {
        throw DatabaseError.unreachable(host: host)
    }
}

final class Repository: Sendable {
    init(database: Database) {}
}

final class Signer: Sendable {
    init(key: String, salt: String) {}
}

final class FeatureFlags: Sendable {}

final class Checkout: Sendable {
    init(api: API, flags: FeatureFlags) {}
}

/// Built on the main actor only; counts its builds so a test can see that validation built it there.
@MainActor final class ViewModel {
    static var builds = 0

    init(feed: Feed) {
        Self.builds += 1
    }
}

final class Recommendations: Sendable {
    init(flags: FeatureFlags) {}
}

#if DEBUG
/// Exists in debug builds only, as its factory does.
final class DebugMenu: Sendable {
    init(token: String) {}
}
#endif

protocol FileStore: Sendable {}

#if os(Linux)
final class LinuxFileStore: FileStore {}
#else
final class DarwinFileStore: FileStore {}
#endif

#if os(iOS) || os(tvOS)
@MainActor final class Haptics {}
#endif

final class SystemLog: Sendable {}

#if os(macOS)
final class StatusItem: Sendable {}
#endif
