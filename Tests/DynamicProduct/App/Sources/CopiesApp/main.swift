import FeatureA
import FeatureB

// One line per thing an app relies on when its features share the library;
// scripts/check-dynamic-product.sh compares them with what each build must show.
print("Container.shared: \(FeatureA.container == FeatureB.container ? "one instance" : "two instances")")
print("clock singleton: \(FeatureA.clock === FeatureB.clock ? "one instance" : "two instances")")
FeatureA.registerMockClock()
let builds = FeatureA.recordedBuilds {
    print("a clock registered in FeatureA, resolved in FeatureB: \(FeatureB.clock.label)")
}
print("builds in FeatureB that a profile recorded in FeatureA: \(builds)")
