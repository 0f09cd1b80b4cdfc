import Synchronization

/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where Self.ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed.
    ///
    /// Combine keeps one per object; the stand-in keeps it in a side table.
    public var objectWillChange: ObservableObjectPublisher {
        WillChangePublishers.shared.publisher(for: self)
    }
}

/// One publisher per live object, for ``ObservableObject/objectWillChange``.
private final class WillChangePublishers: Sendable {
    static let shared = WillChangePublishers()

    // Read and written only under `entries`' lock.
    private final class Entry: @unchecked Sendable {
        weak var object: AnyObject?
        let publisher = ObservableObjectPublisher()

        init(_ object: AnyObject) {
            self.object = object
        }
    }

    private let entries = Mutex([ObjectIdentifier: Entry]())

    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = ObjectIdentifier(object)
        let made = Entry(object)
        return entries.withLock { entries in
            // An identifier is reused once its object is gone: only a live entry counts.
            if let entry = entries[id], entry.object === made.object { return entry.publisher }
            entries[id] = made
            return made.publisher
        }
    }
}
