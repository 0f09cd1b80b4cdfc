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
/// Not generic: the instance lives in memory of its own (``storage``), whose type
/// the cell records, so that the engine and a reader of any type find it at the
/// same place without a generic class's metadata. A reader copies it out as the
/// type of the factory whose key the cell was found under (``read(_:)``); the
/// engine, which does not know that type, hands the cell over held
/// (``found()``) for its caller to read.
@usableFromInline
package final class CacheCell: @unchecked Sendable {
    // Sendable because every stored property is a `let` (the weak reference is
    // the runtime's atomic weak reference); the instance itself is the user's,
    // shared the way the scope promises.

    /// The instance, of type ``valueType``: owned by the cell when it is strong;
    /// an unretained bit copy, valid while ``object`` is alive, when it is weak.
    @usableFromInline package let storage: UnsafeMutableRawPointer
    /// The scope the instance was built for; a hit under another scope is a miss.
    @usableFromInline package let scopeID: ObjectIdentifier
    /// When it was built, in monotonic nanoseconds, for time-to-live.
    @usableFromInline package let createdAt: UInt64
    /// The epoch of the location it was stored in (see ``CacheLocation/epoch``); 0
    /// where locations have none. A cell of another epoch is stale.
    @usableFromInline package let epoch: Int
    /// How the instance is shut down, when its factory declared it (`onShutdown`).
    package let shutdown: ShutdownRecord?
    /// The type of the instance.
    package let valueType: Any.Type
    /// Whether the cell holds its instance weakly (the shared scope): it is then
    /// alive only while ``object`` is.
    @usableFromInline package let isWeak: Bool
    /// A weak cell's object.
    private weak var weakObject: AnyObject?

    private init(
        storage: UnsafeMutableRawPointer, valueType: Any.Type, object: AnyObject?, scopeID: ObjectIdentifier,
        createdAt: UInt64, epoch: Int, shutdown: ShutdownRecord?
    ) {
        self.storage = storage
        self.valueType = valueType
        isWeak = object != nil
        weakObject = object
        self.scopeID = scopeID
        self.createdAt = createdAt
        self.epoch = epoch
        self.shutdown = shutdown
    }

    deinit {
        if !isWeak {
            func destroy<V>(_: V.Type) {
                storage.assumingMemoryBound(to: V.self).deinitialize(count: 1)
            }
            destroy(valueType)
        }
        storage.deallocate()
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
            let instance = value.assumingMemoryBound(to: V.self)
            var object: AnyObject?
            if weak {
                guard let found = WeakBox<V>.object(in: instance.pointee) else { return nil }
                object = found
            }
            let storage = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<V>.size, alignment: MemoryLayout<V>.alignment)
            if weak {
                // A bit copy, which holds no reference: the weak reference says whether it is alive.
                storage.copyMemory(from: value, byteCount: MemoryLayout<V>.size)
            } else {
                storage.initializeMemory(as: V.self, to: instance.pointee)
            }
            return CacheCell(
                storage: storage, valueType: V.self, object: object, scopeID: scopeID, createdAt: createdAt, epoch: epoch,
                shutdown: weak ? nil : shutdown)
        }
        return make(type)
    }

    /// Monotonic nanoseconds, for time-to-live.
    @inlinable
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The instance, as `T`, the factory's value type; `nil` once a weak
    /// instance is gone. `T` must be ``valueType``: the caller's factory key names it.
    @_alwaysEmitIntoClient @inline(__always)
    package func read<T>(_ type: T.Type) -> T? {
        if !isWeak { return storage.assumingMemoryBound(to: T.self).pointee }
        return readWeak(T.self)
    }

    /// ``read(_:)`` of a weak cell.
    @usableFromInline
    package func readWeak<T>(_ type: T.Type) -> T? {
        guard let object = weakObject else { return nil }
        return withExtendedLifetime(object) { storage.assumingMemoryBound(to: T.self).pointee }
    }

    /// A weak cell's object, retained, or `nil` once it is gone; `nil` for a strong cell.
    package func retainedObject() -> AnyObject? {
        weakObject
    }

    /// The cell's instance, held until the caller copies it out; `nil` once a
    /// weak instance is gone.
    package func found() -> FoundInstance? {
        guard isWeak else { return FoundInstance(cell: self, object: nil) }
        return retainedObject().map { FoundInstance(cell: self, object: $0) }
    }
}

/// An instance the engine found, by its cell, held until the caller reads it as
/// the factory's value type: the engine does not know that type.
package struct FoundInstance {
    let cell: CacheCell
    /// A weak cell's object, held so that the instance cannot be gone when read.
    let object: AnyObject?

    /// The instance's address, valid while this value lives.
    var address: UnsafeRawPointer {
        UnsafeRawPointer(cell.storage)
    }

    /// The instance, as `T`, the value type of the factory that found it.
    package func read<T>(_ type: T.Type) -> T {
        withExtendedLifetime(object) { cell.storage.assumingMemoryBound(to: T.self).pointee }
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

    /// The object `value` holds, if it holds one (unwrapping optionals).
    package static func object(in value: T) -> AnyObject? {
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
