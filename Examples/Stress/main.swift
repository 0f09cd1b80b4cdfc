// FactoryStress: the library's concurrency guarantees, checked from real threads
// through the public API in an optimised build. Prints every count it checks and
// exits with status 1 on any miscount (2 if it does not finish in time).
//
//     swift run -c release FactoryStress
import FactoryWrappers

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

startWatchdog(seconds: 50)
let started = milliseconds()
var report = StressReport()

stressExactlyOnce(&report)
stressLazyInjected(&report)
stressGraph(&report)
stressChaos(&report)

print("\(report.checks) checks, \(report.failures) failed, \(milliseconds() - started) ms")
exit(report.failures == 0 ? 0 : 1)
