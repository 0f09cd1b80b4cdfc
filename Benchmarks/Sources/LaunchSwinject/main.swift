// Scenario 10, Swinject: register 1,000 `.container`-scoped services (part of
// launch for a Swinject app), then resolve each once.
import BenchSupport
import Swinject

let clock = ContinuousClock()
var container: Container!
var first: UInt = 0
let start = clock.now
launchPhase {
    container = Container()
    registerAll(container)
}
let afterSetUp = clock.now
launchPhase { first = resolveAll(container) }
let afterFirst = clock.now
let again = resolveAll(container)
let end = clock.now
print(launchReport(setUp: afterSetUp - start, first: afterFirst - afterSetUp, again: end - afterFirst, same: first == again))
