import FactoryScopes

// scripts/check-catalog.sh copies this file into Sources/FixtureApp: a factory added
// without regenerating the catalog, which `factory-catalog --check` must name.
extension FeatureContainer {
    var addedLater: Factory<FeatureFlags> {
        self { FeatureFlags() }
    }
}
