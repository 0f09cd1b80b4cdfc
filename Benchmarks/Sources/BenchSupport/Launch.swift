/// Scenario 10: the identity of a resolved service, summed so that the
/// resolutions cannot be optimized away and so that a second pass can be
/// checked to return the same (cached) instances.
public func id(_ object: AnyObject) -> UInt {
    UInt(bitPattern: ObjectIdentifier(object).hashValue)
}

/// Scenario 10: the one JSON line a launch program prints.
///
/// - Parameters:
///   - setUp: Creating the container and registering (Swinject only).
///   - first: Resolving each of the 1,000 services for the first time.
///   - again: Resolving them all a second time (cached).
///   - same: Whether the second pass returned the same instances.
public func launchReport(setUp: Duration, first: Duration, again: Duration, same: Bool) -> String {
    func ns(_ d: Duration) -> Int64 {
        d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000
    }
    return "{\"setUpNs\":\(ns(setUp)),\"firstNs\":\(ns(first)),\"againNs\":\(ns(again)),\"sameInstances\":\(same)}"
}

/// Scenario 10: runs one phase of a launch (set-up, or the first resolution of
/// every service) under a fixed symbol name, so that `valgrind --tool=callgrind
/// --toggle-collect=*launch_phase*` counts exactly the instructions of the
/// measured phases and nothing of process start-up or the second pass. (The
/// pattern has stars because the optimizer clones the function per closure.)
@_silgen_name("launch_phase")
@inline(never)
public func launchPhase(_ body: () -> Void) {
    body()
}
