/// The checks a stress run made, printed as they are made.
struct StressReport {
    private(set) var checks = 0
    private(set) var failures = 0

    /// Records that `actual` must equal `expected`.
    mutating func expect(_ name: String, _ actual: Int, equals expected: Int, _ detail: String = "") {
        record(name, actual == expected, "\(actual) (expected \(expected))\(detail.isEmpty ? "" : ", \(detail)")")
    }

    /// Records that `actual` must not exceed `limit`.
    mutating func expect(_ name: String, _ actual: Int, atMost limit: Int, _ detail: String = "") {
        record(name, actual <= limit, "\(actual) (at most \(limit))\(detail.isEmpty ? "" : ", \(detail)")")
    }

    private mutating func record(_ name: String, _ passed: Bool, _ detail: String) {
        checks += 1
        if !passed { failures += 1 }
        let padded = name.count < 48 ? name + String(repeating: " ", count: 48 - name.count) : name
        print("\(passed ? "ok  " : "FAIL")  \(padded) \(detail)")
    }
}
