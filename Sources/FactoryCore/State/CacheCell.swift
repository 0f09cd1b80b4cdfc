#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One cached instance and what it was built under. Immutable: a new build
/// publishes a new cell, so a lock-free reader sees a whole cell or none.
///
/// The engine reads a cell without knowing its value type: it copies the
/// instance out into memory the caller typed (``copyValue(into:)``), and makes a
/// cell from an instance's address and type (``make(copying:type:weak:scopeID:createdAt:epoch:shutdown:)``).
@usableFromInline
package class CacheCell: @unchecked Sendable {
    // Sendable because every stored property is a `let`; the instance itself is
    // the user's, shared the way the scope promises.

    /// The scope the instance was built for; a hit under another scope is a miss.
    @usableFromInline package let scopeID: ObjectIdentifier
    /// When it was built, in monotonic nanoseconds, for time-to-live.
    @usableFromInline package let createdAt: UInt64
    /// The epoch of the location it was stored in (see ``CacheLocation/epoch``); 0
    /// where locations have none. A cell of another epoch is stale.
    @usableFromInline package let epoch: Int
    /// How the instance is shut down, when its factory declared it (`onShutdown`).
    package let shutdown: ShutdownRecord?
    /// Whether this is a ``WeakCell`` (else a ``StrongCell``): readers downcast by
    /// it, so the cell, not the scope a reader assumes, says how it holds its instance.
    @usableFromInline package let isWeak: Bool

    init(scopeID: ObjectIdentifier, createdAt: UInt64, epoch: Int, shutdown: ShutdownRecord?, isWeak: Bool) {
        self.isWeak = isWeak
        self.scopeID = scopeID
        self.createdAt = createdAt
        self.epoch = epoch
        self.shutdown = shutdown
    }

    /// Monotonic nanoseconds, for time-to-live.
    @inlinable
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Copies the instance into `destination`, uninitialized memory of the value
    /// type of the factory the cell was made for; `false`, and nothing written,
    /// once a weak instance is gone.
    package func copyValue(into destination: UnsafeMutableRawPointer) -> Bool {
        preconditionFailure("CacheCell.copyValue is overridden by StrongCell and WeakCell")
    }

    /// A weak cell's object, retained, or `nil` once it is gone; `nil` for a strong cell.
    package func retainedObject() -> AnyObject? {
        nil
    }

    /// The cell's instance, held until the caller copies it out; `nil` once a
    /// weak instance is gone.
    package func found() -> FoundInstance? {
        guard isWeak else { return FoundInstance(cell: self, object: nil) }
        return retainedObject().map { FoundInstance(cell: self, object: $0) }
    }

    /// A cell holding a copy of the instance at `value`, of type `type`: weak when
    /// `weak` (`nil` when the instance is not an object, which cannot be held
    /// weakly). A weak cell records no shutdown: a container does not own what
    /// it holds weakly.
    package static func make(
        copying value: UnsafeRawPointer, type: Any.Type, weak: Bool, scopeID: ObjectIdentifier, createdAt: UInt64,
        epoch: Int, shutdown: ShutdownRecord?
    ) -> CacheCell? {
        func make<V>(_: V.Type) -> CacheCell? {
            let instance = value.assumingMemoryBound(to: V.self).pointee
            if weak { return WeakCell(instance, scopeID: scopeID, createdAt: createdAt, epoch: epoch) }
            return StrongCell(instance, scopeID: scopeID, createdAt: createdAt, epoch: epoch, shutdown: shutdown)
        }
        return make(type)
    }
}

/// Holds a cached instance strongly. The key guarantees `T`, so readers downcast unchecked.
@usableFromInline
package final class StrongCell<T>: CacheCell, @unchecked Sendable {
    // Sendable: see CacheCell.
    @usableFromInline package let value: T

    @usableFromInline
    package init(_ value: T, scopeID: ObjectIdentifier, createdAt: UInt64, epoch: Int, shutdown: ShutdownRecord? = nil) {
        self.value = value
        super.init(scopeID: scopeID, createdAt: createdAt, epoch: epoch, shutdown: shutdown, isWeak: false)
    }

    override package func copyValue(into destination: UnsafeMutableRawPointer) -> Bool {
        destination.initializeMemory(as: T.self, to: value)
        return true
    }
}

/// Holds a cached instance weakly, for the shared scope.
@usableFromInline
package final class WeakCell<T>: CacheCell, @unchecked Sendable {
    // Sendable: see CacheCell; the box holds the runtime's atomic weak reference.
    private let box: WeakBox<T>

    /// Returns `nil` when `value` is not an object (or is `nil`): such values cannot be held weakly.
    package init?(_ value: T, scopeID: ObjectIdentifier, createdAt: UInt64, epoch: Int) {
        guard let box = WeakBox(value) else { return nil }
        self.box = box
        super.init(scopeID: scopeID, createdAt: createdAt, epoch: epoch, shutdown: nil, isWeak: true)
    }

    /// The instance, or `nil` once nobody else holds it.
    @usableFromInline
    package var value: T? {
        box.value
    }

    override package func copyValue(into destination: UnsafeMutableRawPointer) -> Bool {
        guard let value = box.value else { return false }
        destination.initializeMemory(as: T.self, to: value)
        return true
    }

    override package func retainedObject() -> AnyObject? {
        box.object
    }
}

/// An instance the engine found, by its cell, held until the caller copies it
/// into memory of the factory's value type: the engine does not know that type.
package struct FoundInstance {
    let cell: CacheCell
    /// A weak cell's object, held so that the copy cannot find it gone.
    let object: AnyObject?

    /// Copies the instance into `destination`, uninitialized memory of the value
    /// type of the factory that found it.
    package func copy(into destination: UnsafeMutableRawPointer) {
        withExtendedLifetime(object) { _ = cell.copyValue(into: destination) }
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
    private weak var weakObject: AnyObject?
    private let bits: UnsafeMutableRawPointer

    /// Returns `nil` when `value` is not an object (or is `nil`): such values cannot be held weakly.
    package init?(_ value: T) {
        guard let object = Self.object(in: value) else { return nil }
        weakObject = object
        bits = .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        withUnsafeBytes(of: value) { bits.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    deinit {
        bits.deallocate()
    }

    /// The value, or `nil` once nobody else holds its object.
    package var value: T? {
        guard let object = weakObject else { return nil }
        return withExtendedLifetime(object) { bits.load(as: T.self) }
    }

    /// The object, retained, or `nil` once nobody else holds it.
    package var object: AnyObject? {
        weakObject
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
