/// One container's strict mode: which factories may use their definition, and
/// which unmocked resolutions were already reported.
///
/// Installed as the manager's unmocked-resolution observer; it runs on whatever
/// thread resolves, so what it changes lives in a core `LockedBox`.
final class StrictModeSession: Sendable {
    private let allowed: Set<FactoryKey>
    private let recorder: IssueRecorder
    private let reported = LockedBox(Set<FactoryKey>())
    private let reportedCaptives = LockedBox(Set<[FactoryKey]>())

    init(allowed: Set<FactoryKey>, recorder: IssueRecorder) {
        self.allowed = allowed
        self.recorder = recorder
    }

    /// Fails the test the first time each unmocked, not-allowed factory is resolved.
    func unmocked(_ key: FactoryKey) {
        guard !allowed.contains(key), reported.withLock({ $0.insert(key).inserted }) else { return }
        recorder.record(Self.message(for: key))
    }

    /// Fails the test the first time each factory captures another.
    func captive(_ capture: CaptiveDependency) {
        guard reportedCaptives.withLock({ $0.insert([capture.holder, capture.captured]).inserted }) else { return }
        recorder.record("Strict mode: \(capture.message)")
    }

    static func message(for key: FactoryKey) -> String {
        "Strict mode: \(key) was resolved from its definition, but the test did not mock it "
            + "(container \(String(describing: key.containerType)), factory \(key.name), "
            + "type \(String(describing: key.valueType))). Register a mock, or allow it with "
            + "enableStrictMode(allowing: \\.\(key.name))."
    }
}
