import FactoryTesting
import Foundation
import ShopCheckout
import Testing

/// The report and the graph the DocC article "Modular apps" shows are this run's.
@Suite(.container, .container(CheckoutContainer.self)) struct ArticleSampleTests {
    @Test func theArticlesReportAndGraphAreRealOnes() throws {
        let report = FactoryCatalog.shopTests.report()
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FactoryTesting/FactoryTesting.docc/ModularApps.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        #expect(sample("report", in: text) == report.description + "\n", "this run reports:\n\(report)")
        #expect(sample("graph", in: text) == report.mermaid(), "this run draws:\n\(report.mermaid())")
    }

    /// The fenced block after `<!-- modular-fixture: NAME -->`.
    private func sample(_ name: String, in text: String) -> String? {
        text.components(separatedBy: "<!-- modular-fixture: \(name) -->\n```\n").dropFirst().first?
            .components(separatedBy: "```").first
    }
}
