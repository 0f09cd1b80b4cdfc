import FactoryKit
import ShopDomain

/// The checkout feature's own container; ShopData adds factories to it.
public final class CheckoutContainer: SharedContainer {
    /// The one instance.
    public static let shared = CheckoutContainer()
    /// Its registrations and caches.
    public let manager = ContainerManager()
}

/// The checkout's cart, one per container.
final class Cart: Sendable {
    init(clock: ShopClock) {}
}

/// Pays for the cart and records the order.
public final class CheckoutFlow: Sendable {
    let payments: (any PaymentProcessor)?
    let ledger: (any OrderLedger)?

    init(payments: (any PaymentProcessor)?, ledger: (any OrderLedger)?, cart: Cart) {
        self.payments = payments
        self.ledger = ledger
    }

    /// Whether the payment went through; the order is recorded when it did.
    public func pay(cents: Int) -> Bool {
        guard payments?.charge(cents: cents) == true else { return false }
        ledger?.record("order of \(cents)")
        return true
    }
}

/// Refunds an order, and records it.
package final class Refunds: Sendable {
    init(ledger: (any OrderLedger)?) {}
}

extension CheckoutContainer {
    var cart: Factory<Cart> {
        self { Cart(clock: Container.shared.shopClock()) }.cached
    }

    /// The checkout, resolving the domain's promises from `Container.shared`.
    public var checkout: Factory<CheckoutFlow> {
        self {
            CheckoutFlow(payments: Container.shared.payments(), ledger: Container.shared.ledger(), cart: self.cart())
        }
    }

    package var refunds: Factory<Refunds> {
        self { Refunds(ledger: Container.shared.ledger()) }
    }
}
