/// A cached instance taken out of its cache for its shutdown.
package struct ShutdownItem: Sendable {
    let cell: CacheCell
    let record: ShutdownRecord

    package var key: FactoryKey { record.key }

    #if SwiftConcurrency
    /// Runs the factory's `onShutdown` closure with the instance.
    package func run() async throws { try await record.handler.run(cell, record.key) }
    #endif
}

extension ContainerManager {
    /// Whether FactoryScopes' `shutdown(includingSingletons:timeout:)` has started on this container. It then
    /// stays shut down: every resolution from it fails, and a reset does not bring it back.
    public var isShutDown: Bool { lock.withLock { state.isShutDown } }

    /// Marks the container shut down and takes out every cached instance whose factory declared a
    /// shutdown (singletons too if asked), each once across containers, latest built first.
    package func takeForShutdown(includingSingletons: Bool) -> [ShutdownItem] {
        var garbage = Garbage()
        var found: [ShutdownItem] = []
        lock.withLock {
            state.isShutDown = true
            publishFlags()
            for slot in table.all() {
                slot.collectShutdowns(into: &found, singletons: includingSingletons, &garbage)
                slot.removeAllInstances(&garbage)
            }
        }
        if includingSingletons {
            globalStorage.removeAll(scope: nil, collectingShutdowns: &found, &garbage)
        }
        // `found` keeps the instances alive; their cells are released here, unlocked.
        garbage.release()
        // A singleton shared by two registrations is found twice; its record's claim succeeds once.
        return found.filter { $0.record.claim() }.sorted { $0.record.order > $1.record.order }
    }
}

/// Thrown by an asynchronous factory resolved from a container whose shutdown has started
/// (FactoryScopes' `manager.shutdown(includingSingletons:timeout:)`).
public struct ContainerShutDownError: Error, CustomStringConvertible {
    /// The factory that was resolved.
    public let key: FactoryKey

    /// What went wrong, naming the factory.
    public var description: String { FactoryError.resolvedAfterShutdown(key).message }
}
