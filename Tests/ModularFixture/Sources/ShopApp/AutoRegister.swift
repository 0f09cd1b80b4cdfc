import FactoryKit
import ShopData

// The app's start-up registrations: the implementations the domain promised.
// `register { }` followed by a scope (`scope(_:)` returns a discardable result; the
// `.singleton` property would leave an unused value) keeps the registration's instance.
extension Container: @retroactive AutoRegistering {
    public func autoRegister() {
        payments.register { CardProcessor() }.scope(.singleton)
    }
}
