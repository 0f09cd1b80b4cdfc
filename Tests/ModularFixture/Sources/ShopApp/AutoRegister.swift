import FactoryKit
import ShopData

// The app's start-up registrations: the implementations the domain promised.
// `register { }` followed by a scope (`scope(_:)` returns a discardable result; the
// `.singleton` property would leave an unused value) keeps the registration's instance.
// swift-format-ignore: AvoidRetroactiveConformances
extension Container: @retroactive AutoRegistering {
    /// Registers the implementations of the domain's promises, but for the ledger.
    public func autoRegister() {
        payments.register { CardProcessor() }.scope(.singleton)
    }
}
