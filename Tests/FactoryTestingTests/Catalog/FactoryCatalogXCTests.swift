import FactoryTestSupport
import XCTest

@testable import FactoryTesting

private final class Piece: Sendable {}

extension Container {
    fileprivate var catalogPiece: Factory<Piece> {
        self { Piece() }.cached
    }

    fileprivate var catalogHolder: Factory<Piece> {
        self {
            _ = self.catalogPiece()
            return Piece()
        }
        .singleton
    }

    @MainActor fileprivate var catalogMainPiece: Factory<Piece> {
        self {
            MainActor.assertIsolated()
            return Piece()
        }
    }
}

/// Catalog validation from XCTest: a synchronous test runs on the main thread.
final class FactoryCatalogXCTests: ContainerTestCase {
    func testValidatePassesWhenEveryFactoryResolves() {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogPiece", \Container.catalogPiece, access: .internal)
            $0.factory("Container.catalogMainPiece", access: .internal, mainActor: { \Container.catalogMainPiece })
        }
        let report = catalog.validate()
        XCTAssertTrue(report.isValid, "\(report)")
        XCTAssertEqual(report.validation.entries, ["Container.catalogPiece<Piece>", "Container.catalogMainPiece<Piece>"])
    }

    func testTheReportNamesACaptiveDependencyWithItsChain() {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogHolder", \Container.catalogHolder, access: .internal)
        }
        let report = catalog.report()
        XCTAssertEqual(report.captives.map(\.holderChain.last?.description), ["Container.catalogHolder<Piece>"])
        XCTAssertEqual(report.captives.map(\.chain.last?.description), ["Container.catalogPiece<Piece>"])
        XCTAssertTrue(report.mermaid().contains("-.->|captures|"))
    }
}
