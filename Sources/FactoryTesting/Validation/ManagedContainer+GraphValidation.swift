extension ManagedContainer {
    /// Resolves each listed factory and fails the test once for every failure and
    /// every cycle found, instead of stopping at the first.
    ///
    /// Cycles stop the program in normal use; during validation each one is
    /// recorded, with its whole chain, and validation goes on with the next
    /// factory. A `promised()` factory resolved with nothing registered is
    /// recorded too (while `promiseTriggersError` is on, as in DEBUG builds) and
    /// resolves to `nil`.
    ///
    /// You list the factories: key paths to this container's factories, in any
    /// order. Factories they resolve are checked along the way.
    ///
    /// Swift Testing:
    ///
    /// ```swift
    /// @Test(.container) func graphResolves() {
    ///     Container.shared.validateGraph(\.api, \.feed, \.checkout, \.session)
    /// }
    /// ```
    ///
    /// XCTest:
    ///
    /// ```swift
    /// func testGraphResolves() {
    ///     withContainer {
    ///         Container.shared.validateGraph(\.api, \.feed, \.checkout, \.session)
    ///     }
    /// }
    /// ```
    ///
    /// Validation builds real instances and caches what their scopes cache, so run
    /// it in an isolated container (the `.container` trait, or `withContainer(_:)`).
    /// Factories resolve on threads of the validator's own that carry
    /// `Container.shared`, the test's singletons and its isolated task-local
    /// containers, but no other task-locals; a factory that must run on the main
    /// actor cannot be validated this way. Each failure that stops a resolution
    /// leaves one parked thread behind for the rest of the process. A factory
    /// closure that crashes by itself (a force unwrap, say) still crashes. One
    /// whose resolution does not finish within a minute (a deadlock) fails as a
    /// ``GraphFailure/Kind/misuse`` naming it, and validation stops there.
    ///
    /// - Parameters:
    ///   - factories: Key paths to factories of this container. Parameter
    ///     factories need a parameter: list them as `GraphEntry` values.
    ///   - fileID: The file the failures point at; leave the default.
    ///   - filePath: The file the failures point at; leave the default.
    ///   - line: The line the failures point at; leave the default.
    ///   - column: The column the failures point at; leave the default.
    /// - Returns: The report, also when it recorded failures.
    @discardableResult
    public func validateGraph(
        _ factories: PartialKeyPath<Self>...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> GraphValidationReport {
        let report = graphReport(factories.map { GraphEntry.keyPath($0) })
        report.recordIssues(fileID: fileID, filePath: filePath, line: line, column: column)
        return report
    }

    /// Resolves each listed entry and fails the test once for every failure and
    /// every cycle found; use it when some factories take a parameter.
    ///
    /// ```swift
    /// Container.shared.validateGraph([
    ///     .factory(\.api),
    ///     .factory(\.greeter, parameter: "Ann"),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - entries: The factories to resolve, and parameters for those that take one.
    ///   - fileID: The file the failures point at; leave the default.
    ///   - filePath: The file the failures point at; leave the default.
    ///   - line: The line the failures point at; leave the default.
    ///   - column: The column the failures point at; leave the default.
    /// - Returns: The report, also when it recorded failures.
    @discardableResult
    public func validateGraph(
        _ entries: [GraphEntry<Self>],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> GraphValidationReport {
        let report = graphReport(entries)
        report.recordIssues(fileID: fileID, filePath: filePath, line: line, column: column)
        return report
    }

    /// Resolves each listed factory like `validateGraph`, but only returns what it
    /// found: no test fails. For tools, and for asserting on the failures yourself.
    ///
    /// - Parameter factories: Key paths to factories of this container.
    /// - Returns: Every failure and cycle found.
    public func graphReport(_ factories: PartialKeyPath<Self>...) -> GraphValidationReport {
        graphReport(factories.map { GraphEntry.keyPath($0) })
    }

    /// Resolves each listed entry like `validateGraph`, but only returns what it found.
    ///
    /// - Parameter entries: The factories to resolve, and parameters for those that take one.
    /// - Returns: Every failure and cycle found.
    public func graphReport(_ entries: [GraphEntry<Self>]) -> GraphValidationReport {
        // Key paths are read here, on the caller's thread; only Sendable factories cross.
        GraphValidator.validate(entries.map { $0.prepare(self) }, in: self)
    }
}
