import FactoryTestSupport
import Synchronization
import Testing

@testable import FactoryTesting

// A catalog of several modules (what `factory-catalog --test-target` writes): each
// problem reported once with every chain that reached it, and one graph with each
// factory in its module. Tests/ModularFixture runs the same through the plugin.

private protocol Ledger: Sendable {}

private final class Checkout: Sendable {
    init(ledger: (any Ledger)?) {}
}

private final class Refunds: Sendable {
    init(ledger: (any Ledger)?) {}
}

private final class Stamp: Sendable {}

extension Container {
    /// Promised in "Domain", registered nowhere.
    fileprivate var findingsLedger: Factory<(any Ledger)?> {
        promised()
    }

    /// Two features that resolve it: three chains reach the one promise.
    fileprivate var findingsCheckout: Factory<Checkout> {
        self { Checkout(ledger: self.findingsLedger()) }
    }

    fileprivate var findingsRefunds: Factory<Refunds> {
        self { Refunds(ledger: self.findingsLedger()) }
    }

    fileprivate var findingsStamp: Factory<Stamp> {
        self { Stamp() }
    }
}

private let appCatalog = FactoryCatalog(testTarget: "AppTests") {
    $0.module("Domain") {
        $0.factory("Container.findingsLedger", \Container.findingsLedger, access: .internal)
        $0.factory("Container.findingsStamp", \Container.findingsStamp, access: .internal)
    }
    $0.module("Feature") {
        $0.factory("Container.findingsCheckout", \Container.findingsCheckout, access: .internal)
        $0.factory("Container.findingsRefunds", \Container.findingsRefunds, access: .internal)
        $0.skipped("Container.findingsSecret", access: .private, reason: "a test target cannot reach it")
    }
}

@Suite(.container { $0.manager.promiseTriggersError = true })
struct CatalogFindingsTests {
    @Test func eachEntryKeepsItsModule() {
        #expect(appCatalog.module == "AppTests")
        #expect(appCatalog.modules == ["Domain", "Feature"])
        #expect(appCatalog.entries.map(\.module) == ["Domain", "Domain", "Feature", "Feature"])
        #expect(appCatalog.skipped.map(\.module) == ["Feature"])
    }

    @Test func anUnregisteredPromiseIsOneFindingWithEveryChain() {
        let report = appCatalog.report()
        // Three entries ran into it: three failures, one finding.
        #expect(report.failures.count == 3, "\(report)")
        #expect(report.findings.count == 1)
        let finding = report.findings.first
        #expect(finding?.kind == .unregisteredPromise)
        #expect(finding?.factory == "Container.findingsLedger<Optional<Ledger>>")
        #expect(finding?.module == "Domain")
        #expect(
            finding?.chains.map { $0.map(\.description).joined(separator: " > ") } == [
                "Container.findingsLedger<Optional<Ledger>>",
                "Container.findingsCheckout<Checkout> > Container.findingsLedger<Optional<Ledger>>",
                "Container.findingsRefunds<Refunds> > Container.findingsLedger<Optional<Ledger>>",
            ])
        #expect(
            report.description.hasPrefix(
                """
                Factory catalog of AppTests (modules Domain, Feature): 4 factories, 4 resolved, 1 finding(s), 0 unchecked, 1 skipped
                  unregisteredPromise: Container.findingsLedger<Optional<Ledger>> (Domain): FactoryCore: \
                Container.findingsLedger<Optional<Ledger>> was promised but nothing is registered for it
                """), "\(report)")
        #expect(report.description.contains("    chain: Container.findingsRefunds<Refunds> > Container.findingsLedger"))
        #expect(
            report.description.hasSuffix(
                "  skipped: Container.findingsSecret (private, Feature): a test target cannot reach it"))
    }

    @Test func validateFailsTheTestOncePerFinding() {
        let recorded = Mutex<[String]>([])
        withKnownIssue {
            appCatalog.validate()
        } matching: { issue in
            recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let issues = recorded.withLock { $0 }
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.contains("chain: Container.findingsCheckout<Checkout> > Container.findingsLedger") == true)
    }

    @Test func theGraphDrawsEachModuleAsASubgraph() {
        let report = appCatalog.report()
        #expect(report.graph.nodes.first { $0.name == "Container.findingsCheckout<Checkout>" }?.module == "Feature")
        let mermaid = report.mermaid()
        #expect(
            mermaid.contains(
                """
                    subgraph module_Domain["Domain"]
                        n_Container_findingsLedger_Optional_Ledger__["Container.findingsLedger#lt;Optional#lt;Ledger#gt;#gt;<br/>unique"]
                """), "\(mermaid)")
        #expect(mermaid.contains("    n_Container_findingsCheckout_Checkout_ --> n_Container_findingsLedger_Optional_Ledger__"))
        let dot = report.dot()
        #expect(dot.contains("    subgraph cluster_Feature {\n        label=\"Feature\";\n"), "\(dot)")
        // The validation's own graph does not know the modules.
        #expect(report.validation.graph.nodes.allSatisfy { $0.module == nil })
    }
}
