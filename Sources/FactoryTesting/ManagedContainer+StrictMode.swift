extension ManagedContainer {
    /// Turns strict mode on for this container: from now on, resolving a factory
    /// that the test did not mock fails the test.
    ///
    /// "Mocked" means a `register` or a context override (`onTest`, ...) applies,
    /// so the factory did not use its definition's closure; an override written
    /// in the definition itself (`self { Real() }.onTest { Mock() }`) counts.
    /// Asynchronous factories are checked as synchronous ones are. Each unmocked factory is reported
    /// once, naming the container, the factory and its type; resolution then goes
    /// on with the definition. Factories listed in `allowed` may use their definition.
    ///
    /// Strict mode also fails the test once for each captive dependency a build of
    /// this container's factories runs into: a singleton whose closure resolves
    /// (directly or through unique factories) a cached, shared, time-to-live, graph
    /// or per-request factory, or a cached factory resolving a factory of a
    /// per-request container (`manager.isPerRequest`). The message names both
    /// factories with their scopes. While strict mode is on, every resolution of
    /// this container takes the general path.
    ///
    /// Swift Testing: turn it on in the trait, after the test's mocks:
    ///
    /// ```swift
    /// @Test(.container {
    ///     $0.api.register { StubAPIClient() }
    ///     $0.enableStrictMode(allowing: \.logger)
    /// })
    /// func loadsOnlyThroughTheStub() {
    ///     #expect(Container.shared.feed().load().count == 3)
    /// }
    /// ```
    ///
    /// XCTest: turn it on after taking a snapshot; restoring the snapshot turns it off:
    ///
    /// ```swift
    /// override func setUp() {
    ///     super.setUp()
    ///     snapshot = ContainerSnapshot(of: Container.shared)
    ///     Container.shared.enableStrictMode()
    /// }
    /// ```
    ///
    /// Strict mode belongs to this container instance. Inside a `.container` trait
    /// that instance is the test's own; on a container other tests use at the same
    /// time their unmocked resolutions would be reported too. The failure goes to the
    /// framework running when strict mode was turned on, at the location of this call.
    ///
    /// - Parameters:
    ///   - allowed: Factories of this container that may use their definition,
    ///     as key paths (`\.logger`); other key paths are reported as a mistake.
    ///   - fileID: The file the failures point at; leave the default.
    ///   - filePath: The file the failures point at; leave the default.
    ///   - line: The line the failures point at; leave the default.
    ///   - column: The column the failures point at; leave the default.
    public func enableStrictMode(
        allowing allowed: PartialKeyPath<Self>...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let recorder = IssueRecorder(fileID: fileID, filePath: filePath, line: line, column: column)
        var keys: Set<FactoryKey> = []
        for keyPath in allowed {
            if let factory = self[keyPath: keyPath] as? any FactoryModifying {
                keys.insert(factory.key)
            } else if let factory = self[keyPath: keyPath] as? any AsynchronousFactory {
                keys.insert(factory.factoryKey)
            } else {
                recorder.record("Strict mode: \(keyPath) is not a factory of \(Self.self)")
            }
        }
        let session = StrictModeSession(allowed: keys, recorder: recorder)
        manager.setUnmockedObserver(session.unmocked)
        manager.setCaptiveObserver(session.captive)
    }

    /// Turns strict mode off for this container.
    public func disableStrictMode() {
        manager.setUnmockedObserver(nil)
        manager.setCaptiveObserver(nil)
    }

    /// Whether strict mode is on for this container.
    public var isStrictModeEnabled: Bool {
        manager.lock.withLock { manager.state.unmockedObserver != nil }
    }
}

/// The asynchronous factory kinds, as strict mode's `allowing:` list names them.
protocol AsynchronousFactory {
    var factoryKey: FactoryKey { get }
}

extension AsyncFactory: AsynchronousFactory {
    var factoryKey: FactoryKey { registration.key }
}

extension AsyncParameterFactory: AsynchronousFactory {
    var factoryKey: FactoryKey { registration.key }
}
