#if canImport(XCTest)
import FactoryTestSupport
import FactoryTesting
import XCTest

/// Factory's "Xcode Unit Tests" example (seeds/factory-1.x-readme-late.md), as
/// written, in 2.x form: push in `setUp`, pop in `tearDown`.
final class XcodeUnitTestsExampleTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.shared.manager.push()
        Container.setupMocks()
    }

    override func tearDown() {
        super.tearDown()
        Container.shared.manager.pop()
    }

    func testSomething() throws {
        Container.shared.myServiceType.register(factory: { MockService() })
        let model = Container.shared.someViewModel()
        XCTAssertTrue(model.isLoaded)
        XCTAssertEqual(model.service.text, "mock")
    }

    func testSetupMocksApplyToEveryTest() {
        XCTAssertEqual(Container.shared.myServiceType().text, "setup")
    }
}

/// What the example's pop undoes, checked in one test so that test order does not matter.
final class PushPopTests: XCTestCase {
    func testPopRestoresWhatPushSaved() {
        XCTAssertEqual(Container.shared.myServiceType().text, "live")
        Container.shared.manager.push()
        Container.setupMocks()
        Container.shared.myServiceType.register { MockService() }
        XCTAssertTrue(Container.shared.someViewModel().isLoaded)
        Container.shared.manager.pop()
        XCTAssertEqual(Container.shared.myServiceType().text, "live")
        XCTAssertFalse(Container.shared.someViewModel().isLoaded)
    }
}

/// A snapshot in `setUp`, a restore in `tearDown`. Every test checks that it
/// starts from the real services, so whichever runs second fails if the first leaked.
final class ContainerSnapshotXCTests: XCTestCase {
    private var snapshot: ContainerSnapshot!

    override func setUp() {
        super.setUp()
        snapshot = ContainerSnapshot(of: Container.shared, XCTestOrders.shared)
    }

    override func tearDown() {
        snapshot.restore()
        super.tearDown()
    }

    func testRegistersMocks() {
        XCTAssertEqual(Container.shared.myServiceType().text, "live")
        XCTAssertEqual(XCTestOrders.shared.checkout(), "live checkout")
        Container.shared.myServiceType.register { MockService() }
        XCTestOrders.shared.checkout.register { "mock checkout" }
        XCTAssertTrue(Container.shared.someViewModel().isLoaded)
    }

    func testReplacesASingleton() {
        XCTAssertEqual(XCTestOrders.shared.receipt().id, 0)
        XCTestOrders.shared.receipt.register { Box(id: 1) }
        XCTAssertEqual(XCTestOrders.shared.receipt().id, 1)
    }

    func testTurnsOnStrictModeAndTrace() {
        XCTAssertFalse(Container.shared.isStrictModeEnabled)
        XCTAssertFalse(Container.shared.manager.trace)
        Container.shared.manager.trace = true
        Container.shared.manager.logger = { _ in }
        Container.shared.enableStrictMode(allowing: \.myServiceType, \.someViewModel)
        XCTAssertFalse(Container.shared.someViewModel().isLoaded)
    }
}

/// The base class: every test starts from, and leaves behind, the containers as they were.
final class ContainerTestCaseTests: ContainerTestCase {
    override var containers: [any ManagedContainer] {
        [Container.shared, XCTestOrders.shared]
    }

    override func setUp() {
        super.setUp()
        // Undone after the test too: the snapshot is taken before setUp.
        Container.shared.mock { $0.someViewModel.register { SomeViewModel(service: MockService("setUp")) } }
    }

    func testRegistersMocks() {
        XCTAssertEqual(Container.shared.myServiceType().text, "live")
        XCTAssertEqual(XCTestOrders.shared.checkout(), "live checkout")
        XCTAssertEqual(Container.shared.someViewModel().service.text, "setUp")
        Container.shared.myServiceType.register { MockService() }
        XCTestOrders.shared.checkout.register { "mock checkout" }
    }

    func testReplacesASingleton() {
        XCTAssertEqual(Container.shared.myServiceType().text, "live")
        XCTAssertEqual(XCTestOrders.shared.receipt().id, 0)
        XCTestOrders.shared.receipt.register { Box(id: 1) }
        XCTAssertEqual(XCTestOrders.shared.receipt().id, 1)
    }
}

/// `withContainer`, strict mode and graph validation from XCTest.
final class XCTestHelpersTests: XCTestCase {
    private struct Failure: Error {}

    func testWithContainerRestoresOnThrow() {
        XCTAssertThrowsError(
            try withContainer {
                Container.shared.myServiceType.register { MockService() }
                XCTAssertTrue(Container.shared.someViewModel().isLoaded)
                throw Failure()
            })
        XCTAssertFalse(Container.shared.someViewModel().isLoaded)
    }

    func testWithMocks() {
        let mocks = Mocks<XCTestOrders> { $0.checkout.register { "mock checkout" } }
        withMocks(mocks) {
            XCTAssertEqual(XCTestOrders.shared.checkout(), "mock checkout")
        }
        XCTAssertEqual(XCTestOrders.shared.checkout(), "live checkout")
    }

    // XCTExpectFailure is missing from swift-corelibs-xctest, so these tests catch
    // failures through recordFailure, which Apple's XCTest deprecates.
    #if !canImport(Darwin)
    func testStrictModeFailsTheTest() {
        withContainer {
            Container.shared.myServiceType.register { MockService() }
            Container.shared.enableStrictMode()
            XCTAssertTrue(Container.shared.myServiceType().text == "mock")
            let failures = expectingFailures {
                _ = Container.shared.someViewModel()
                _ = Container.shared.someViewModel()
            }
            XCTAssertEqual(failures.count, 1)
            XCTAssertTrue(failures.first?.contains("Container.someViewModel<SomeViewModel>") == true)
        }
    }

    func testGraphValidationFailsTheTestOncePerFailure() {
        let failures = expectingFailures {
            withContainer {
                Container.shared.myServiceType.register { Container.shared.someViewModel().service }
                Container.shared.validateGraph(\.someViewModel, \.myServiceType)
            }
        }
        XCTAssertEqual(failures.count, 2)
        XCTAssertTrue(failures.allSatisfy { $0.contains("circular dependency chain") })
    }

    func testAnUnregisteredPromiseFailsThisTestAndResolvesToNil() {
        withContainer {
            let failures = expectingFailures {
                XCTAssertNil(Container.shared.promisedGreeter())
                XCTAssertEqual(Container.shared.usesPromise(), "none")
            }
            #if DEBUG
            XCTAssertEqual(failures.count, 2)
            XCTAssertTrue(
                failures.allSatisfy { $0.contains("Container.promisedGreeter<Optional<Greeter>> was promised") },
                "\(failures)")
            #else
            XCTAssertEqual(failures, [], "release builds resolve an unregistered promise to nil silently")
            #endif
        }
    }

    private var caughtFailures: [String]?

    private func expectingFailures(_ body: () -> Void) -> [String] {
        caughtFailures = []
        body()
        defer { caughtFailures = nil }
        return caughtFailures ?? []
    }

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if caughtFailures != nil {
            caughtFailures?.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

    func testGraphValidation() {
        withContainer {
            let report = Container.shared.graphReport(\.someViewModel, \.myServiceType)
            XCTAssertTrue(report.isValid, report.description)
        }
    }
}
#endif
