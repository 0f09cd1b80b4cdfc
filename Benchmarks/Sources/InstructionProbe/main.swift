// Runs one scenario of one library `n` times inside `probe_measured`, for
// counting instructions with valgrind (the harness's `instructions` metric
// needs hardware counters, which this kind of VM does not expose):
//
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//         --collect-atstart=no --toggle-collect=probe_measured \
//         InstructionProbe factory "01 unique" 20000
//
// "Collected" divided by n is instructions per operation. The scenario runs
// 1,000 times first so that one-time work (first resolution, metadata,
// caches) is not counted. Also handy as a tiny driver for profiling.
import BenchSupport
import ScenariosBaseline
import ScenariosDependencies
import ScenariosFactory
import ScenariosSwinject

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@_silgen_name("probe_measured")
@inline(never)
func probeMeasured(_ run: (Int) -> Void, _ n: Int) {
    run(n)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 2, let library = arguments.dropFirst().first else {
    print("usage: InstructionProbe <baseline|factory|swinject|dependencies> [<scenario name> <n>]")
    exit(2)
}
let scenarios: [Scenario]
switch library {
case "baseline": scenarios = BaselineScenarios.make()
case "factory": scenarios = FactoryScenarios.make()
case "swinject": scenarios = SwinjectScenarios.make()
case "dependencies": scenarios = DependenciesScenarios.make()
default:
    print("unknown library \(library)")
    exit(2)
}
if arguments.count == 2 {
    // List the scenarios that can be probed.
    for scenario in scenarios where !scenario.threaded {
        print(scenario.name)
    }
    exit(0)
}
guard let scenario = scenarios.first(where: { $0.name == arguments[2] }), let n = Int(arguments[3]) else {
    print("unknown scenario or count")
    exit(2)
}
scenario.run(1_000)
probeMeasured(scenario.run, n)
