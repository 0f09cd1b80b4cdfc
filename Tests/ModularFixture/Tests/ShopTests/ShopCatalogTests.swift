import FactoryTesting
import ShopData
import Testing

@testable import ShopApp
@testable import ShopCheckout
@testable import ShopDomain

/// The whole app's graph, from the catalog of every module ShopTests reaches.
/// `CheckoutContainer.shared` is a `static let`: its trait runs these tests one at a
/// time, each with the container's caches restored, so each run draws the whole graph.
@Suite(.container, .container(CheckoutContainer.self)) struct ShopCatalogTests {
    @Test func theForgottenRegistrationIsOneFindingWithEveryChain() {
        let report = FactoryCatalog.shopTests.report()
        #expect(report.findings.count == 1, "\(report)")
        let finding = report.findings.first
        #expect(finding?.kind == .unregisteredPromise)
        #expect(finding?.factory == "Container.ledger<Optional<OrderLedger>>")
        #expect(finding?.module == "ShopDomain")
        #expect(
            finding?.chains.map { $0.map(\.description).joined(separator: " > ") } == [
                "CheckoutContainer.checkout<CheckoutFlow> > Container.ledger<Optional<OrderLedger>>",
                "CheckoutContainer.refunds<Refunds> > Container.ledger<Optional<OrderLedger>>",
                "Container.ledger<Optional<OrderLedger>>",
            ])
        // The promise autoRegister fulfils is no finding.
        #expect(!report.failures.contains { $0.entry.hasPrefix("Container.payments") })
    }

    @Test func theCatalogCoversEveryModuleItReaches() {
        let catalog = FactoryCatalog.shopTests
        #expect(catalog.module == "ShopTests")
        #expect(catalog.modules == ["ShopCheckout", "ShopData", "ShopDomain"])
        let modules = Dictionary(catalog.entries.map { ($0.name, $0.module) }, uniquingKeysWith: { first, _ in first })
        #expect(modules["Container.ledger"] == "ShopDomain")
        #expect(modules["CheckoutContainer.checkout"] == "ShopCheckout")
        // A factory on a container declared in another module belongs to the module that declares the factory.
        #expect(modules["CheckoutContainer.receipts"] == "ShopData")
        #expect(catalog.entries.first { $0.name == "CheckoutContainer.refunds" }?.access == .package)
        #expect(catalog.skipped.map(\.name) == ["CheckoutContainer.printerFirmware"])
    }

    @Test func oneGraphShowsEachFactoryInItsModule() {
        let mermaid = FactoryCatalog.shopTests.report().mermaid()
        #expect(mermaid.contains("    subgraph module_ShopDomain[\"ShopDomain\"]\n"), "\(mermaid)")
        #expect(mermaid.contains("    subgraph module_ShopCheckout[\"ShopCheckout\"]\n"))
        #expect(mermaid.contains("n_CheckoutContainer_checkout_CheckoutFlow_ --> n_Container_ledger_Optional_OrderLedger__"))
        #expect(mermaid.contains("n_CheckoutContainer_receipts_ReceiptPrinter_ --> n_CheckoutContainer_paper_String_"))
        let dot = FactoryCatalog.shopTests.report().dot()
        #expect(dot.contains("    subgraph cluster_ShopData {\n        label=\"ShopData\";\n"), "\(dot)")
    }

    @Test func autoRegisterRunsAndItsScopeHolds() {
        // `register { }.scope(.singleton)` in autoRegister: the registered type, one instance.
        let first = Container.shared.payments() as? CardProcessor
        let second = Container.shared.payments() as? CardProcessor
        #expect(first != nil)
        #expect(first === second)
    }

    /// Testing one module alone: its promises registered with mocks.
    @Test(.container { $0.ledger.register { MockLedger() } })
    func checkoutWithAMockLedger() {
        #expect(CheckoutContainer.shared.checkout().pay(cents: 1_200))
        #expect(!CheckoutContainer.shared.checkout().pay(cents: 20_000))
    }
}

final class MockLedger: OrderLedger {
    func record(_ order: String) {}
}
