import FactoryScopes

/// A custom container, whose factories resolve some of `Container`'s.
final class FeatureContainer: SharedContainer {
    static let shared = FeatureContainer()
    let manager = ContainerManager()

    var flags: Factory<FeatureFlags> {
        self { FeatureFlags() }.cached
    }
}

extension FeatureContainer {
    var checkout: Factory<Checkout> {
        self { Checkout(api: Container.shared.api(), flags: self.flags()) }
    }

    // A name long enough that its catalog entry wraps as `swift format` wraps it.
    var recommendationsForTheCheckoutPage: Factory<Recommendations> {
        self { Recommendations(flags: self.flags()) }
    }
}
