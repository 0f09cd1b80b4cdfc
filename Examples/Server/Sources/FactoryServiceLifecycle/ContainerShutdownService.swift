import FactoryScopes
import Logging
import ServiceLifecycle

/// Shuts a container down as part of a `ServiceGroup`'s graceful shutdown.
///
/// Add it to the group after the services that resolve from the container (a
/// Hummingbird `Application` takes it in `services:`, and its HTTP server is
/// shut down before the services listed there): when the group shuts down
/// (SIGTERM, SIGINT), the server stops taking requests and finishes the ones in
/// flight, then this runs `container.manager.shutdown()`, which shuts down what
/// the container built, latest built first.
///
/// ```swift
/// let app = Application(
///     router: router,
///     services: [ContainerShutdownService(Container.shared, logger: logger)]
/// )
/// try await app.runService()
/// ```
///
/// It lives in the example's package rather than in Factory's: the library
/// package depends on nothing, and this needs swift-service-lifecycle. Depend on
/// this product by path, or copy the file.
public struct ContainerShutdownService: Service {
    private let manager: ContainerManager
    private let includingSingletons: Bool
    private let timeout: Duration
    private let logger: Logger

    /// A service that shuts down `container` when its group shuts down.
    ///
    /// - Parameters:
    ///   - container: The container to shut down, usually the application's `Container.shared`.
    ///   - includingSingletons: Also shut down the singletons of its singleton
    ///     storage (the process's); true for the application's container.
    ///   - timeout: How long the `onShutdown` closures may take, together.
    ///   - logger: Where a failed shutdown is reported.
    public init(
        _ container: some ManagedContainer,
        includingSingletons: Bool = true,
        timeout: Duration = .seconds(30),
        logger: Logger
    ) {
        manager = container.manager
        self.includingSingletons = includingSingletons
        self.timeout = timeout
        self.logger = logger
    }

    /// Waits for the group's graceful shutdown (or its cancellation), then shuts
    /// the container down.
    ///
    /// - Throws: The container's `ShutdownError` when an instance did not shut
    ///   down cleanly, after logging it: the group then ends with that error.
    public func run() async throws {
        // Throws only when the group is cancelled: shut down all the same.
        try? await gracefulShutdown()
        do {
            try await manager.shutdown(includingSingletons: includingSingletons, timeout: timeout)
        } catch {
            logger.error("container shutdown failed: \(error)")
            throw error
        }
    }
}
