#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One cached instance and what it was built under. Immutable: a new build publishes a new cell,
/// so a lock-free reader sees a whole cell or none. Not generic: the instance lives at
/// ``storage``, so any reader finds it without a generic class's metadata; a reader copies it out
/// as its factory key's type (``read(_:)``), the type-unaware engine hands it over held (``found()``).
@usableFromInline
package final class CacheCell: @unchecked Sendable {
    // Sendable: every stored property is a `let` (the weak one is the runtime's atomic weak
    // reference); the instance is the user's, shared as the scope promises.

    /// Owned by a strong cell; in a weak cell an unretained bit copy, valid while `weakObject` lives.
    @usableFromInline package let storage: UnsafeMutableRawPointer
    @usableFromInline package let scopeID: ObjectIdentifier  // a hit under another scope is a miss
    @usableFromInline package let createdAt: UInt64  // monotonic nanoseconds
    /// The location's ``CacheLocation/epoch`` (0 where none); a cell of another epoch is stale.
    @usableFromInline package let epoch: Int
    package let shutdown: ShutdownRecord?
    package let valueType: Any.Type
    @usableFromInline package let isWeak: Bool  // the shared scope: alive only while `weakObject` is
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
            func destroy<V>(_: V.Type) { storage.assumingMemoryBound(to: V.self).deinitialize(count: 1) }
            destroy(valueType)
        }
        storage.deallocate()
    }

    /// `nil` if `weak` and the instance is no object. A weak cell records no shutdown: a
    /// container does not own what it holds weakly.
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
                // A bit copy holding no reference: the weak reference says whether it is alive.
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

    @inlinable
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Built under `scopeID` and younger than `ttl` nanoseconds (0: forever).
    @inline(__always)
    func isValid(scopeID: ObjectIdentifier, ttl: UInt64) -> Bool {
        guard self.scopeID == scopeID else { return false }
        return ttl == 0 || Self.now() &- createdAt < ttl
    }

    /// `nil` once a weak instance is gone. `T` must be ``valueType``: the caller's factory key names it.
    @_alwaysEmitIntoClient @inline(__always)
    package func read<T>(_ type: T.Type) -> T? {
        if !isWeak { return storage.assumingMemoryBound(to: T.self).pointee }
        return readWeak(T.self)
    }

    @usableFromInline
    package func readWeak<T>(_ type: T.Type) -> T? {
        guard let object = weakObject else { return nil }
        return withExtendedLifetime(object) { storage.assumingMemoryBound(to: T.self).pointee }
    }

    /// Held until the caller copies it out; `nil` once a weak instance is gone.
    package func found() -> FoundInstance? {
        guard isWeak else { return FoundInstance(cell: self, object: nil) }
        return weakObject.map { FoundInstance(cell: self, object: $0) }
    }
}

/// A found cell, held until the caller, who knows the value type, reads it.
package struct FoundInstance {
    let cell: CacheCell
    let object: AnyObject?  // a weak cell's, held so the instance cannot be gone when read

    var address: UnsafeRawPointer {  // valid while this value lives
        UnsafeRawPointer(cell.storage)
    }

    package func read<T>(_ type: T.Type) -> T {
        withExtendedLifetime(object) { cell.storage.assumingMemoryBound(to: T.self).pointee }
    }
}

/// A weak reference to a value holding an object (class, class existential, or an optional of
/// one), which `weak` cannot name generically: a weak reference for liveness plus an unretained
/// bit copy, read only while the weak reference proves the object alive.
package final class WeakBox<T>: @unchecked Sendable {
    // Sendable: the weak reference is the runtime's atomic weak reference, and `bits` is immutable.
    private weak var weakObject: AnyObject?
    private let bits: UnsafeMutableRawPointer

    package init?(_ value: T) {  // `nil` when `value` is not an object (or is `nil`)
        guard let object = Self.object(in: value) else { return nil }
        weakObject = object
        bits = .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        withUnsafeBytes(of: value) { bits.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    deinit { bits.deallocate() }

    package var value: T? {
        guard let object = weakObject else { return nil }
        return withExtendedLifetime(object) { bits.load(as: T.self) }
    }

    package var object: AnyObject? { weakObject }

    package static func object(in value: T) -> AnyObject? {  // unwraps optionals
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
