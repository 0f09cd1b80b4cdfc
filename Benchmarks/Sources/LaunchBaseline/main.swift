// Scenario 10, hand-written: 1,000 `static let` services, each read once.
// Prints one JSON line; BenchReport runs this in many fresh processes.
import BenchSupport

let clock = ContinuousClock()
var first: UInt = 0
let start = clock.now
let afterSetUp = clock.now
launchPhase { first = resolveAll() }
let afterFirst = clock.now
let again = resolveAll()
let end = clock.now
print(launchReport(setUp: afterSetUp - start, first: afterFirst - afterSetUp, again: end - afterFirst, same: first == again))
