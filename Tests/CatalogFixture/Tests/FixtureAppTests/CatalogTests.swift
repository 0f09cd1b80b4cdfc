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

    @Test func eachProblemIsOneFindingWithEveryChainThatReachedIt() {
        let report = FactoryCatalog.fixtureApp.report(samples)
        #expect(
            report.findings.map { "\($0.kind) \($0.factory)" } == [
                "unregisteredPromise Container.analytics<Optional<Analytics>>",
                "captiveDependency Container.auditLog<AuditLog>",
                "circularDependency Container.cycleA<CycleA>",
                "thrownError Container.database<Database>",
            ], "\(report)")
        let chains = report.findings.map { $0.chains.map { $0.map(\.description).joined(separator: " > ") } }
        // The promise: resolved as an entry of its own, and by the tracker.
        #expect(
            chains.first == [
                "Container.analytics<Optional<Analytics>>",
                "Container.tracker<Tracker> > Container.analytics<Optional<Analytics>>",
            ])
        // The cycle, entered from each of its factories.
        #expect(
            chains.dropFirst(2).first == [
                "Container.cycleA<CycleA> > Container.cycleB<CycleB> > Container.cycleA<CycleA>",
                "Container.cycleB<CycleB> > Container.cycleA<CycleA> > Container.cycleB<CycleB>",
            ])
        #expect(report.findings.allSatisfy { $0.module == "FixtureApp" })
        #expect(report.findings.map(\.failures.count) == [2, 1, 2, 2])
    }

    /// Factories under `#if`: each catalogued inside its condition, so this build
    /// sees those of the branches it compiles, and they resolve.
    @Test func conditionalFactoriesAreCataloguedInsideTheirConditions() {
        let names = FactoryCatalog.fixtureApp.entries.map(\.name)
        #expect(names.filter { $0 == "Container.files" }.count == 1)
        #expect(!names.contains("Container.haptics"))
        #expect(names.contains("Container.debugMenu") == isDebug)
        #if canImport(Glibc)
        #expect(names.contains("Container.syslog"))
        #expect(names.contains("Container.verboseSyslog") == isDebug)
        #endif
        #expect(names.contains("MenuBarContainer.statusItem") == isMacOS)
        #expect(FactoryCatalog.fixtureApp.skipped.contains { $0.name == "Container.debugToken" } == isDebug)
        let report = FactoryCatalog.fixtureApp.report(samples)
        let conditional = ["Container.files", "Container.debugMenu", "Container.syslog"]
        #expect(!report.failures.contains { failure in conditional.contains { failure.entry.hasPrefix($0 + "<") } })
    }

    @Test func aParameterFactoryWithoutASampleIsUncheckedAndPrivateOnesAreSkipped() {
        let report = FactoryCatalog.fixtureApp.report(samples)
        #expect(report.unchecked.map(\.name).first == "Container.pager")
        #expect(report.unchecked.first?.reason.hasPrefix("takes a parameter of type Int and no sample was given") == true)
        #expect(Array(report.skipped.map(\.name).prefix(2)) == ["Container.salt", "Container.secretKey"])
        #expect(Array(report.skipped.map(\.access).prefix(2)) == [.fileprivate, .private])
        // Factories with a sample were resolved with it, the others too.
        #expect(report.validation.entries.count == FactoryCatalog.fixtureApp.entries.count - report.unchecked.count)
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
        // Four findings (seven failures), and each unchecked factory.
        let unchecked = FactoryCatalog.fixtureApp.report(samples).unchecked.count
        #expect(recorded.withLock { $0 } == 4 + unchecked)
    }
}

/// The report the DocC article "Checking the whole graph" shows is this run's (a
/// debug build on Linux: the factories under `#if` are this platform's).
@Suite(.container) struct ArticleSampleTests {
    @Test(.enabled(if: isLinux && isDebug, "the article shows a debug run on Linux"))
    func theArticlesReportIsARealOne() throws {
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

#if DEBUG
let isDebug = true
#else
let isDebug = false
#endif

#if os(macOS)
let isMacOS = true
#else
let isMacOS = false
#endif

#if os(Linux)
let isLinux = true
#else
let isLinux = false
#endif
