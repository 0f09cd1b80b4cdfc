import FactoryTesting
import XCTest

@testable import FixtureApp

/// The same validation from XCTest: a synchronous test runs on the main thread,
/// where main-actor factories are then resolved directly.
final class CatalogXCTests: ContainerTestCase {
    func testOneRunFindsEveryProblem() {
        let report = FactoryCatalog.fixtureApp.report(samples)
        XCTAssertEqual(
            report.failures.map(\.kind),
            [
                .unregisteredPromise, .captiveDependency, .circularDependency, .circularDependency, .thrownError,
                .thrownError, .unregisteredPromise,
            ], "\(report)")
        XCTAssertEqual(report.findings.count, 4)
        XCTAssertEqual(report.unchecked.map(\.name).first, "Container.pager")
        XCTAssertEqual(Array(report.skipped.map(\.name).prefix(2)), ["Container.salt", "Container.secretKey"])
    }

    func testValidatePassesWhereNothingIsWrong() {
        let healthy = FactoryCatalog(module: "FixtureApp") {
            $0.factory("Container.feed", \Container.feed, access: .internal)
            $0.factory("Container.greeter", \Container.greeter, access: .internal)
            $0.factory("Container.viewModel", access: .internal, mainActor: { \Container.viewModel })
            $0.factory("FeatureContainer.checkout", \FeatureContainer.checkout, access: .internal)
        }
        let report = healthy.validate(samples)
        XCTAssertTrue(report.isValid, "\(report)")
    }
}
