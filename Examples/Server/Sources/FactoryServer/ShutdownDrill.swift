import FactoryScopes
import ServerApp

// `FactoryServer --shutdown-drill hang|throw`: a singleton whose `onShutdown`
// misbehaves, built at start-up between the connection pool and the catalog
// store, so that the application's shutdown reaches it between the two (latest
// built first): the store, then the drill, then the pool.
//
// It lives here, not in ServerApp, because it is no part of the example's
// services: `ServerShutdownTests` runs the server with it to show what a
// shutdown handler that hangs or throws does to the others and to the exit status.

/// A service whose shutdown hangs or throws.
final class ShutdownDrillService: Sendable {
    /// What went wrong, on purpose.
    struct Failed: Error, CustomStringConvertible {
        var description: String { "the drill's shutdown failed on purpose" }
    }

    let drill: ServerOptions.ShutdownDrill

    init(_ drill: ServerOptions.ShutdownDrill) {
        self.drill = drill
    }

    /// Hangs (until cancelled, which a shutdown does not do) or throws.
    func shutdown() async throws {
        ShutdownJournal.shared.record("drill: \(drill.rawValue) starts")
        switch drill {
        case .hang:
            // Sleeps in slices, ignoring cancellation: a close that never returns.
            while true {
                try? await Task.sleep(for: .seconds(3600))
            }
        case .throw:
            throw Failed()
        }
    }
}

extension Container {
    var shutdownDrill: ParameterFactory<ServerOptions.ShutdownDrill, ShutdownDrillService> {
        self { ShutdownDrillService($0) }
            .singleton
            .onShutdown { try await $0.shutdown() }
    }

    /// Builds the pool, the drill and the catalog store, in that order, so that
    /// the shutdown reaches the drill between the store and the pool.
    func prepare(_ drill: ServerOptions.ShutdownDrill) async throws {
        _ = connectionPool()
        _ = shutdownDrill(drill)
        _ = try await catalog()
    }
}
