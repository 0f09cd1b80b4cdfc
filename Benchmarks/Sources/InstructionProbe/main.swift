// Runs one scenario of one library outside package-benchmark:
//
//     InstructionProbe <library>                       lists its scenarios
//     InstructionProbe <library> <scenario> <n>        runs it n times in probe_measured
//     InstructionProbe <library> <scenario> <n> time   prints ns/op (best of 15 rounds)
//
// The second form is for counting instructions with valgrind; the harness's
// `instructions` metric needs hardware counters that a VM often lacks:
//
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//         --collect-atstart=no --toggle-collect=probe_measured \
//         InstructionProbe factory "01 unique" 20000
//
// "Collected" divided by n is instructions per operation. The scenario first
// runs 1,000 times so that one-time work (first resolution, metadata,
// caches) is not counted. The third form times the scenario without the
// harness's malloc interposer, as a cross-check of wall time.
import BenchSupport
import ScenariosBaseline
import ScenariosDependencies
import ScenariosSwinject
#if canImport(ScenariosFactory)
import ScenariosFactory
#endif

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

func fail(_ message: String) -> Never {
    print(message)
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let library = arguments.first else {
    fail("usage: InstructionProbe <baseline|factory|swinject|dependencies> [<scenario> <n> [time]]")
}
let scenarios: [Scenario]
switch library {
case "baseline": scenarios = BaselineScenarios.make()
case "swinject": scenarios = SwinjectScenarios.make()
case "dependencies": scenarios = DependenciesScenarios.make()
#if canImport(ScenariosFactory)
case "factory": scenarios = FactoryScenarios.make()
#endif
default: fail("unknown library \(library)")
}

if arguments.count == 1 {
    for scenario in scenarios where !scenario.threaded {
        print(scenario.name)
    }
    exit(0)
}
guard arguments.count >= 3, let scenario = scenarios.first(where: { $0.name == arguments[1] }),
      let n = Int(arguments[2]), n > 0
else {
    fail("unknown scenario or count")
}

// Real apps and the harness are multi-threaded, and glibc's malloc takes a
// slower path once a second thread has existed (measured: 13 vs 33 ns for one
// `Svc()`), so make this process multi-threaded too.
runOnThreads(1) {}

scenario.run(1_000)
if arguments.count == 4, arguments[3] == "time" {
    let clock = ContinuousClock()
    var best = Duration.seconds(1_000)
    for _ in 0..<15 {
        let elapsed = clock.measure { probeMeasured(scenario.run, n) }
        best = min(best, elapsed)
    }
    let ns = Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
    print(ns / Double(n))
} else {
    probeMeasured(scenario.run, n)
}
