import FactoryTesting

@testable import FixtureApp

/// The sample parameters of the fixture's parameter factories, in one place; `pager` has none.
let samples = ParameterSamples {
    $0.add("Ann")
    $0.add("weekly", for: \Container.report)
}
