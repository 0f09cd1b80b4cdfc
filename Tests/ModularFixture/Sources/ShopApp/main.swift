import FactoryKit
import ShopDomain

// The shop's entry point; its tests validate every module's factories through the catalog.
print("charged: \(Container.shared.payments()?.charge(cents: 1_200) == true)")
