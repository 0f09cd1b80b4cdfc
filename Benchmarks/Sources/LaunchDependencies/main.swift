// Scenario 10, swift-dependencies: 1,000 DependencyKeys, each read once
// through @Dependency (the first read builds and caches its liveValue).
import BenchSupport
import Dependencies

let clock = ContinuousClock()
var first: UInt = 0
let start = clock.now
let afterSetUp = clock.now
launchPhase { first = resolveAll() }
let afterFirst = clock.now
let again = resolveAll()
let end = clock.now
print(launchReport(setUp: afterSetUp - start, first: afterFirst - afterSetUp, again: end - afterFirst, same: first == again))
