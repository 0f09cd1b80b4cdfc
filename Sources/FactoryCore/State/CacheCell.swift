#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One cached instance and what it was built under. Immutable: a new build
/// publishes a new cell, so a lock-free reader sees a whole cell or none.
@usableFromInline
package class CacheCell: @unchecked Sendable {
    // Sendable because every stored property is a `let`; the instance itself is
    // the user's, shared the way the scope promises.

    /// The scope the instance was built for; a hit under another scope is a miss.
    @usableFromInline package let scopeID: ObjectIdentifier
    /// When it was built, in monotonic nanoseconds, for time-to-live.
    @usableFromInline package let createdAt: UInt64
    /// The singleton era it was built in (see ``GlobalStorage``); 0 elsewhere.
    @usableFromInline package let era: Int
    /// How the instance is shut down, when its factory declared it (`onShutdown`).
    package let shutdown: ShutdownRecord?
    /// Whether this is a ``WeakCell`` (else a ``StrongCell``): readers downcast by
    /// it, so the cell, not the scope a reader assumes, says how it holds its instance.
    @usableFromInline package let isWeak: Bool

    init(scopeID: ObjectIdentifier, createdAt: UInt64, era: Int, shutdown: ShutdownRecord?, isWeak: Bool) {
        self.isWeak = isWeak
        self.scopeID = scopeID
        self.createdAt = createdAt
        self.era = era
        self.shutdown = shutdown
    }

    /// Monotonic nanoseconds, for time-to-live.
    @inlinable
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

}

/// Holds a cached instance strongly. The key guarantees `T`, so readers downcast unchecked.
@usableFromInline
package final class StrongCell<T>: CacheCell, @unchecked Sendable {
    // Sendable: see CacheCell.
    @usableFromInline package let value: T

    @usableFromInline
    package init(_ value: T, scopeID: ObjectIdentifier, createdAt: UInt64, era: Int, shutdown: ShutdownRecord? = nil) {
        self.value = value
        super.init(scopeID: scopeID, createdAt: createdAt, era: era, shutdown: shutdown, isWeak: false)
    }
}

/// Holds a cached instance weakly, for the shared scope.
@usableFromInline
package final class WeakCell<T>: CacheCell, @unchecked Sendable {
    // Sendable: see CacheCell; the box holds the runtime's atomic weak reference.
    private let box: WeakBox<T>

    /// Returns `nil` when `value` is not an object (or is `nil`): such values cannot be held weakly.
    package init?(_ value: T, scopeID: ObjectIdentifier, createdAt: UInt64, era: Int) {
        guard let box = WeakBox(value) else { return nil }
        self.box = box
        super.init(scopeID: scopeID, createdAt: createdAt, era: era, shutdown: nil, isWeak: true)
    }

    /// The instance, or `nil` once nobody else holds it.
    @usableFromInline
    package var value: T? {
        box.value
    }
}

/// A weak reference to a value of any type that holds an object: a class, a
/// class-constrained existential, or an optional of one.
///
/// `weak` cannot name such a `T` generically; the box keeps a weak reference for
/// liveness plus an unretained bit copy of the value, read only while the weak
/// reference proves the object alive.
package final class WeakBox<T>: @unchecked Sendable {
    // Sendable: the weak reference is the runtime's atomic weak reference, and `bits` is immutable.
    private weak var object: AnyObject?
    private let bits: UnsafeMutableRawPointer

    /// Returns `nil` when `value` is not an object (or is `nil`): such values cannot be held weakly.
    package init?(_ value: T) {
        guard let object = Self.object(in: value) else { return nil }
        self.object = object
        bits = .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        withUnsafeBytes(of: value) { bits.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    deinit {
        bits.deallocate()
    }

    /// The value, or `nil` once nobody else holds its object.
    package var value: T? {
        guard let object else { return nil }
        return withExtendedLifetime(object) { bits.load(as: T.self) }
    }

    private static func object(in value: T) -> AnyObject? {
        var any: Any = value
        while true {
            let mirror = Mirror(reflecting: any)
            guard mirror.displayStyle == .optional else { break }
            guard let wrapped = mirror.children.first?.value else { return nil }
            any = wrapped
        }
        guard type(of: any) is AnyClass else { return nil }
        return any as AnyObject
    }
}
