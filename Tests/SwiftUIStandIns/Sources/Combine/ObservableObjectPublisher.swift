import Synchronization

/// A publisher that publishes changes from observable objects.
///
/// The stand-in counts what it sends and calls the observers the tests add.
public final class ObservableObjectPublisher: Publisher, Sendable {
    /// The kind of values published by this publisher.
    public typealias Output = Void

    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    private let state = Mutex(State())

    private struct State {
        var sent = 0
        var observers: [@Sendable () -> Void] = []
    }

    /// Creates an observable object publisher instance.
    public init() {}

    /// Sends the changed value to the downstream subscriber.
    public func send() {
        let observers = state.withLock { state in
            state.sent += 1
            return state.observers
        }
        for observer in observers { observer() }
    }

    /// How many times ``send()`` ran: what a test reads instead of subscribing.
    package var sentCount: Int {
        state.withLock { $0.sent }
    }

    /// Calls `observer` after every later ``send()``.
    package func observe(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(observer) }
    }
}
