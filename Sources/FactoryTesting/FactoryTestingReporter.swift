#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Tells the core about the running test, so that a misuse resolution can go
/// past (an unregistered `promised()` factory) fails that test instead of the
/// whole test process, and a failure that stops the process names the test.
///
/// Only tests run under FactoryTesting count: inside a `.container` trait
/// (Swift Testing), or inside ``ContainerTestCase`` and `withContainer` (XCTest).
struct FactoryTestingReporter: FactoryTestReporting {
    private static let installed = LockedBox(false)

    /// Installs the reporter once per process.
    static func install() {
        let first = installed.withLock { installed -> Bool in
            defer { installed = true }
            return !installed
        }
        if first { FactoryTestHooks.reporter = FactoryTestingReporter() }
    }

    func recordIssue(_ message: String) -> Bool {
        #if canImport(Testing)
        if let test = Test.current, TestIsolation.current.inTrait || XCTestScope.current != nil {
            // At the test's own declaration: the default location would be this line, inside
            // the library. (The resolution site is not known here; FactoryCore does not carry it.)
            Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
            return true
        }
        #endif
        #if canImport(XCTest)
        if XCTestScope.current != nil {
            XCTFail(message)
            return true
        }
        #endif
        return false
    }

    var currentTestName: String? {
        #if canImport(Testing)
        if TestIsolation.current.inTrait, let test = Test.current { return test.name }
        #endif
        return XCTestScope.current
    }
}

/// The XCTest test a FactoryTesting helper is running, if any: set by
/// ``ContainerTestCase`` (with the test's name) and `withContainer` (without).
/// XCTest runs one test at a time per process, so one process-wide value is right.
enum XCTestScope {
    private static let state = LockedBox<[String]>([])

    /// The innermost helper's test name (`""` when it does not know the name), or `nil` outside helpers.
    static var current: String? {
        state.withLock { $0.last }
    }

    /// Runs `body` as part of the test `name`.
    static func run<R>(_ name: String, _ body: () throws -> R) rethrows -> R {
        FactoryTestingReporter.install()
        state.withLock { $0.append(name) }
        defer { state.withLock { _ = $0.popLast() } }
        return try body()
    }

    /// Runs the asynchronous `body` as part of the test `name`.
    static func run<R>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        FactoryTestingReporter.install()
        state.withLock { $0.append(name) }
        defer { state.withLock { _ = $0.popLast() } }
        return try await body()
    }
}
