/// A monotonic clock.
public protocol Clocking: Sendable {
    /// Time elapsed since an arbitrary, fixed origin.
    var now: Duration { get }
}
