// A stand-in for Combine's `Publisher`, declared as Apple declares it but without
// the subscription machinery, which nothing here uses.

/// Declares that a type can transmit a sequence of values over time.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output

    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error
}
