// A stand-in for the part of Apple's `os` module that FactoryCore uses on Apple platforms: `OSSignposter` intervals,
// declared with the signatures of Apple's documentation. Each interval is counted, so a test can see that recording a
// FactoryProfile began and ended one interval per build.
import Foundation

/// How a message's interpolated value shows in logs.
public struct OSLogPrivacy: Sendable {
    /// Shown as is.
    public static let `public` = OSLogPrivacy()
    /// Redacted.
    public static let `private` = OSLogPrivacy()
    /// The system's choice.
    public static let auto = OSLogPrivacy()
}

/// The interpolated message of a signpost.
public struct SignpostMetadata: ExpressibleByStringInterpolation, Sendable {
    /// Builds the message's text.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        /// An empty message.
        public init(literalCapacity: Int, interpolationCount: Int) {}
        /// Appends literal text.
        public mutating func appendLiteral(_ literal: String) { text += literal }
        /// Appends a string value with its privacy.
        public mutating func appendInterpolation(
            _ argumentString: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .auto
        ) {
            text += argumentString()
        }
    }

    /// The message (the stand-in keeps it for tests).
    public let text: String
    /// A message of literal text.
    public init(stringLiteral value: String) { text = value }
    /// An interpolated message.
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }
}

/// Pairs the beginning and the end of intervals.
public struct OSSignpostID: Sendable {
    /// For intervals of which one runs at a time.
    public static let exclusive = OSSignpostID(value: 0)
    let value: UInt64
}

/// An interval under way.
public final class OSSignpostIntervalState: Sendable {
    let name: String
    let message: String
    init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

/// Signposts to one subsystem and category.
public struct OSSignposter: Sendable {
    /// A signposter for `subsystem` and `category`.
    public init(subsystem: String, category: String) {}

    /// A new identifier for an interval.
    public func makeSignpostID() -> OSSignpostID {
        OSSignpostID(value: Self.record.withLock { $0.begun + $0.ended + 1 })
    }

    /// Begins an interval named `name`, with `message`.
    public func beginInterval(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
    ) -> OSSignpostIntervalState {
        Self.record.withLock {
            $0.begun += 1
            $0.messages.append(message.text)
        }
        return OSSignpostIntervalState(name: "\(name)", message: message.text)
    }

    /// Ends the interval `state`, which began under `name`.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {
        precondition("\(name)" == state.name, "an interval ends under the name it began with")
        Self.record.withLock { $0.ended += 1 }
    }

    // The stand-in's own record, for tests: not Apple's API.
    private final class Record: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        var begun: UInt64 = 0
        var ended: UInt64 = 0
        var messages: [String] = []

        func withLock<R>(_ body: (Record) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    private static let record = Record()

    /// Intervals begun and ended so far, and every begun interval's message (stand-in only).
    public static var standInRecord: (begun: UInt64, ended: UInt64, messages: [String]) {
        record.withLock { ($0.begun, $0.ended, $0.messages) }
    }
}
