extension ContainerManager {
    /// FactoryTesting strict mode hook: called by a resolution that used the
    /// factory's definition while `Flags.strictMocks` is set. The observer runs
    /// outside the lock, on the resolving thread.
    package func reportUnmocked(_ key: FactoryKey) {
        let observer = lock.withLock { state.unmockedObserver }
        observer?(key)
    }
}
