import FactoryWrappers

/// A screen model that takes its dependencies through property wrappers.
final class ProfileModel {
    /// Resolved when the model is created.
    @Injected(\.network) var network
    /// Resolved on first read, exactly once.
    @LazyInjected(\.imageCache) var images
    /// A factory of a custom container.
    @Injected(\ReportingContainer.reports) var reports
}

/// Section 3 of the demo.
func showPropertyWrappers() {
    let model = ProfileModel()
    show("@Injected network vs Container.shared.network()", letters([model.network, Container.shared.network()]))
    show("@Injected reports vs ReportingContainer.reports()", letters([model.reports, ReportingContainer.shared.reports()]))
    show("@LazyInjected images before the first read", model.$images.resolvedOrNil() == nil ? "not resolved yet" : "resolved")
    show("@LazyInjected images: read twice, vs the cache", letters([model.images, model.images, Container.shared.imageCache()]))

    let other = Container()
    let otherModel = Container.$shared.withValue(other) { ProfileModel() }
    show("images: this model vs a model in another container", letters([model.images, otherModel.images]))
}
