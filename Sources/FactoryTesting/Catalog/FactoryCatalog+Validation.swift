extension FactoryCatalog {
    /// Resolves every factory of the catalog under graph validation and fails the
    /// test once for every failure and every factory it could not resolve.
    ///
    /// One run covers every container of the catalog: each factory is resolved on
    /// `Container.shared` (or its own container type's `shared`, or the instance
    /// given with ``ParameterSamples/use(_:)``), read on the calling task, so run it
    /// in an isolated container (the `.container` trait, `withContainer(_:)` or a
    /// ``ContainerTestCase``). It reports, each with its chain:
    ///
    /// - cycles (``GraphFailure/Kind/circularDependency``), recorded instead of
    ///   stopping the program;
    /// - captive dependencies (``GraphFailure/Kind/captiveDependency``);
    /// - `promised()` factories resolved with nothing registered
    ///   (``GraphFailure/Kind/unregisteredPromise``), while the container's
    ///   `promiseTriggersError` is on, as in DEBUG builds;
    /// - errors thrown by async factories (``GraphFailure/Kind/thrownError``), and
    ///   async factories that did not finish within `asyncTimeLimit`
    ///   (``GraphFailure/Kind/timedOut``);
    /// - parameter factories without a sample, and container types without an
    ///   instance (``CatalogReport/unchecked``).
    ///
    /// Factories whose closure is isolated to the main actor are read and resolved
    /// on the main thread: from a test running there, directly; from any other
    /// thread, through the main queue, which must not be blocked meanwhile. A cycle
    /// among such factories stops the program with its chain, as it would in the
    /// app: validation cannot give up the main thread to go on. The others resolve
    /// on validation threads, as with `validateGraph` (see
    /// ``ManagedContainer/validateGraph(_:fileID:filePath:line:column:)-(PartialKeyPath<Self>...,_,_,_,_)``).
    /// Factories the catalog skips are listed in the report and fail nothing.
    ///
    /// ```swift
    /// @Test(.container) func everyFactoryResolves() {
    ///     let report = FactoryCatalog.myApp.validate(ParameterSamples { $0.add("Ann") })
    ///     print(report.mermaid())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - samples: Parameters for parameter factories, and instances of containers without `shared`.
    ///   - asyncTimeLimit: How long each async factory may take, in seconds.
    ///   - fileID: The file the failures point at; leave the default.
    ///   - filePath: The file the failures point at; leave the default.
    ///   - line: The line the failures point at; leave the default.
    ///   - column: The column the failures point at; leave the default.
    /// - Returns: The report, also when it recorded failures; its ``CatalogReport/mermaid()``
    ///   and ``CatalogReport/dot()`` draw the whole graph of the run.
    @discardableResult
    public func validate(
        _ samples: ParameterSamples = ParameterSamples(),
        asyncTimeLimit: Double = 10,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> CatalogReport {
        let report = self.report(samples, asyncTimeLimit: asyncTimeLimit)
        report.recordIssues(fileID: fileID, filePath: filePath, line: line, column: column)
        return report
    }

    /// Resolves every factory like ``validate(_:asyncTimeLimit:fileID:filePath:line:column:)``,
    /// but only returns what it found: no test fails.
    ///
    /// - Parameters:
    ///   - samples: Parameters for parameter factories, and instances of containers without `shared`.
    ///   - asyncTimeLimit: How long each async factory may take, in seconds.
    /// - Returns: What validation found, and the whole graph.
    public func report(_ samples: ParameterSamples = ParameterSamples(), asyncTimeLimit: Double = 10) -> CatalogReport {
        precondition(
            asyncTimeLimit > 0 && asyncTimeLimit.isFinite,
            "FactoryTesting: asyncTimeLimit must be a positive number of seconds, got \(asyncTimeLimit)")
        return CatalogValidator.validate(self, CatalogContext(samples: samples, asyncTimeLimit: asyncTimeLimit))
    }
}
