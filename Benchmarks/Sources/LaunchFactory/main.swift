// Scenario 10, Factory: 1,000 cached factories on `Container.shared`, each
// resolved once. There is nothing to register up front.
import BenchSupport
import FactoryScopes

let clock = ContinuousClock()
var container: Container!
var first: UInt = 0
let start = clock.now
launchPhase { container = Container.shared }
let afterSetUp = clock.now
launchPhase { first = resolveAll(container) }
let afterFirst = clock.now
let again = resolveAll(container)
let end = clock.now
print(launchReport(setUp: afterSetUp - start, first: afterFirst - afterSetUp, again: end - afterFirst, same: first == again))
