import FactoryKit

/// Charges a card.
public protocol PaymentProcessor: Sendable {
    /// Whether the charge went through.
    func charge(cents: Int) -> Bool
}

/// Keeps the record of every order.
public protocol OrderLedger: Sendable {
    /// Records an order.
    func record(_ order: String)
}

/// The shop's clock, one for the process.
public final class ShopClock: Sendable {
    /// A clock.
    public init() {}
}

// The domain declares what the app needs and promises the rest: the app registers
// the implementations at start-up. Nothing registers `ledger`: the catalog's
// validation finds it, once, with every chain that reaches it.
extension Container {
    /// The payment processor, registered by the app.
    public var payments: Factory<(any PaymentProcessor)?> {
        promised()
    }

    /// The order ledger, which the app forgets to register.
    public var ledger: Factory<(any OrderLedger)?> {
        promised()
    }

    /// The shop's clock.
    public var shopClock: Factory<ShopClock> {
        self { ShopClock() }.singleton
    }
}
