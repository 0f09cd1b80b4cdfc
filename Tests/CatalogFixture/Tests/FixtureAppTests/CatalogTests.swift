import FactoryTesting
import Foundation
import Synchronization
import Testing

@testable import FixtureApp

/// Catalog validation of the fixture, from Swift Testing: one run finds each
/// planted problem, with its chain, and nothing else.
@Suite(.container) struct CatalogTests {
    @Test func oneRunFindsEveryProblemWithItsChain() {
        let report = FactoryCatalog.fixtureApp.report(samples)
        let found = report.failures.map { "\($0.kind) \($0.entry)" }
        #expect(
            found == [
                "unregisteredPromise Container.analytics<Optional<Analytics>>",
                "captiveDependency Container.auditLog<AuditLog>",
                "circularDependency Container.cycleA<CycleA>",
                "circularDependency Container.cycleB<CycleB>",
                "thrownError Container.database<Database>",
                "thrownError Container.repository<Repository>",
                "unregisteredPromise Container.tracker<Tracker>",
            ], "\(report)")
        #expect(
            report.cycles.map { $0.map(\.description) } == [
                ["Container.cycleA<CycleA>", "Container.cycleB<CycleB>", "Container.cycleA<CycleA>"]
            ])
        let captive = report.captives.first
        #expect(captive?.holderChain.map(\.description) == ["Container.auditLog<AuditLog>"])
        #expect(captive?.chain.last?.description == "Container.session<Session>")
        let promise = report.failures.first { $0.entry == "Container.tracker<Tracker>" }
        #expect(
            promise?.chain.map(\.description) == [
                "Container.tracker<Tracker>", "Container.analytics<Optional<Analytics>>",
            ])
        // The repository's error is the database's: the chain names the factory that threw it.
        let thrown = report.failures.first { $0.entry == "Container.repository<Repository>" }
        #expect(
            thrown?.chain.map(\.description) == ["Container.repository<Repository>", "Container.database<Database>"])
        #expect(thrown?.message.contains("Container.database<Database> threw unreachable(host: \"db.internal\")") == true)
    }

    @Test func aParameterFactoryWithoutASampleIsUncheckedAndPrivateOnesAreSkipped() {
        let report = FactoryCatalog.fixtureApp.report(samples)
        #expect(report.unchecked.map(\.name) == ["Container.pager"])
        #expect(report.unchecked.first?.reason.hasPrefix("takes a parameter of type Int and no sample was given") == true)
        #expect(report.skipped.map(\.name) == ["Container.salt", "Container.secretKey"])
        #expect(report.skipped.map(\.access) == [.fileprivate, .private])
        // Factories with a sample were resolved with it, the others too.
        #expect(report.validation.entries.count == FactoryCatalog.fixtureApp.entries.count - 1)
        #expect(!report.isValid)
    }

    @Test func mainActorFactoriesAreBuiltOnTheMainActor() async {
        let before = await MainActor.run { ViewModel.builds }
        let report = FactoryCatalog.fixtureApp.report(samples)
        #expect(!report.failures.contains { $0.entry.hasPrefix("Container.viewModel") }, "\(report)")
        // Other tests of the suite validate the catalog at the same time: at least this one built it.
        #expect(await MainActor.run { ViewModel.builds } > before)
    }

    @Test func theWholeGraphComesOutOfTheSameRun() {
        let report = FactoryCatalog.fixtureApp.report(samples)
        let mermaid = report.mermaid()
        // Both containers, the cross-container edge, and the captive one.
        #expect(mermaid.contains("n_FeatureContainer_checkout_Checkout_ --> n_Container_api_API_"), "\(mermaid)")
        #expect(mermaid.contains("n_Container_auditLog_AuditLog_ -.->|captures| n_Container_session_Session_"))
        #expect(mermaid.contains("n_Container_cycleA_CycleA_ -->|cycle| n_Container_cycleB_CycleB_"))
        #expect(mermaid.contains("n_Container_repository_Repository_ --> n_Container_database_Database_"))
        #expect(report.dot().contains("n_FeatureContainer_checkout_Checkout_ -> n_Container_api_API_;"))
    }

    @Test func validateFailsTheTestForEveryFindingAndUncheckedFactory() {
        let recorded = Mutex(0)
        withKnownIssue {
            FactoryCatalog.fixtureApp.validate(samples)
        } matching: { _ in
            recorded.withLock { $0 += 1 }
            return true
        }
        // Seven failures, one unchecked factory.
        #expect(recorded.withLock { $0 } == 8)
    }
}

/// The report the DocC article "Checking the whole graph" shows is this run's.
@Suite(.container) struct ArticleSampleTests {
    @Test func theArticlesReportIsARealOne() throws {
        let report = FactoryCatalog.fixtureApp.report(samples)
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FactoryTesting/FactoryTesting.docc/CheckingTheWholeGraph.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let sample = text.components(separatedBy: "<!-- check-catalog: report -->\n```\n").dropFirst().first?
            .components(separatedBy: "```").first
        #expect(sample == report.description + "\n", "the article's sample; this run reports:\n\(report)")
    }
}
