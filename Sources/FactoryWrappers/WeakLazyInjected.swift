/// Resolves a dependency on first read and holds it weakly, for parent/child
/// relationships and to break retain cycles.
///
/// ```swift
/// final class ServicesC {
///     @WeakLazyInjected(\.servicesP) var parent: ServicesP?
///     func test() -> String? { parent?.name }
/// }
/// extension Container {
///     var servicesP: Factory<ServicesP> { self { ServicesP() }.shared }
///     var servicesC: Factory<ServicesC> { self { ServicesC() }.shared }
/// }
/// ```
///
/// The property is `nil` whenever nobody else holds the instance — including right
/// after the first read when nothing else kept it, as with
/// `weak var gone: MyClass? = MyClass()`. Use it with a factory whose scope keeps or
/// shares the instance (`.shared`, `.cached`, `.singleton`) or for an object someone
/// else already holds. Values that are not class instances cannot be held weakly
/// and always read as `nil`.
///
/// The factory is resolved once, on the first read; once the instance is gone
/// the property stays `nil` until ``resolve(reset:)`` or an assignment. The
/// container is chosen when the enclosing object is created, as for
/// ``LazyInjected``, and the first read is exactly-once across threads in the same
/// way.
///
/// Projected value: `$parent.resolve(reset:)`, `$parent.resolvedOrNil()` (the
/// instance if it was resolved and is still alive, without resolving) and
/// `$parent.factory`. Copies of the wrapper share their state.
///
/// Thread safety and isolation: every member may be used from any thread; the
/// wrapper is `Sendable` when `T` is. For non-isolated `Sendable` classes and
/// `@MainActor` `deinit`s, declare it as a `let` and use `wrappedValue`, as
/// described for ``LazyInjected``.
@propertyWrapper
public struct WeakLazyInjected<T> {
    /// `nil` in the slot: the resolved value was not an object, so nothing is held.
    private let cell = LazyCell<WeakBox<T>?>()

    /// The factory this property resolves from, bound to the container chosen at
    /// initialization.
    public let factory: Factory<T>

    /// Prepares to resolve `keyPath` on the `Container.shared` of this moment, on first read.
    ///
    /// - Parameter keyPath: A factory of ``Container``: `\.servicesP`.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(Container.shared[keyPath: keyPath])
    }

    /// Prepares to resolve `keyPath` on `C.shared`, on first read.
    ///
    /// - Parameter keyPath: A factory of a shared container: `\OrderContainer.parent`.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(C.shared[keyPath: keyPath])
    }

    /// Prepares to resolve `factory` on first read; for containers that are not
    /// shared, or a specific container instance.
    ///
    /// - Parameter factory: The factory to resolve, already bound to its container.
    public init(_ factory: Factory<T>) {
        self.factory = factory
    }

    /// The instance while someone else holds it, else `nil`. Resolved on the first
    /// read. Assigning holds the new value weakly and counts as the first resolution.
    public var wrappedValue: T? {
        get { cell.slot(key: factory.key, build: build)?.value }
        nonmutating set { cell.store(newValue.flatMap { WeakBox($0) }) }
    }

    /// The wrapper itself, for `$parent.resolve()`, `$parent.resolvedOrNil()` and
    /// `$parent.factory`.
    public var projectedValue: WeakLazyInjected<T> {
        self
    }

    /// Resolves the factory again and holds the result weakly.
    ///
    /// - Parameter options: What to reset on the factory before resolving. The
    ///   default resets nothing.
    /// - Returns: The instance if someone else holds it after the resolution, else `nil`.
    @discardableResult
    public func resolve(reset options: FactoryResetOptions = .none) -> T? {
        if !options.isEmpty { factory.reset(options) }
        return cell.slot(key: factory.key, refresh: true, build: build)?.value
    }

    /// The instance if the property was resolved or assigned and the instance is
    /// still alive, else `nil`; never resolves.
    public func resolvedOrNil() -> T? {
        cell.peek()??.value
    }

    /// Resolves into a weak box. The strong result is released when this returns,
    /// so whether the property reads `nil` depends only on who else holds the
    /// instance, never on how long the optimizer keeps a local alive.
    private func build() -> WeakBox<T>? {
        WeakBox(factory.resolve())
    }
}

extension WeakLazyInjected: Sendable where T: Sendable {}

/// A weak reference to a value holding an object (class, class existential, or an optional of
/// one), which `weak` cannot name generically: a weak reference for liveness plus an unretained
/// bit copy, read only while the weak reference proves the object alive.
final class WeakBox<T>: @unchecked Sendable {
    // Sendable: the weak reference is the runtime's atomic weak reference, and `bits` is immutable.
    private weak var weakObject: AnyObject?
    private let bits: UnsafeMutableRawPointer

    init?(_ value: T) {  // `nil` when `value` is not an object (or is `nil`)
        guard let object = CacheCell.object(in: value) else { return nil }
        weakObject = object
        bits = .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        withUnsafeBytes(of: value) { bits.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    deinit { bits.deallocate() }

    var value: T? {
        guard let object = weakObject else { return nil }
        return withExtendedLifetime(object) { bits.load(as: T.self) }
    }
}
