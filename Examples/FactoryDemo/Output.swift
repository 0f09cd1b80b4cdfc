/// Prints a section heading.
func section(_ title: String) {
    print("\n== \(title)")
}

/// Prints `label -> value`, aligned.
func show(_ label: String, _ value: String) {
    let padding = String(repeating: " ", count: max(1, 50 - label.count))
    print("  \(label)\(padding)-> \(value)")
}

/// Names instances by identity, in order of first appearance: `[a, a, b]` is
/// "A A B". The array keeps every instance alive, so no address is reused.
func letters(_ objects: [AnyObject]) -> String {
    var seen: [ObjectIdentifier] = []
    return objects.map { object in
        let id = ObjectIdentifier(object)
        if !seen.contains(id) { seen.append(id) }
        let index = seen.firstIndex(of: id) ?? 0
        return String(UnicodeScalar(UInt8(65 + index)))
    }.joined(separator: " ")
}

/// Holds an object without keeping it alive, to show when the library let it go.
final class WeakReference<Object: AnyObject> {
    private(set) weak var object: Object?
    init(_ object: Object) { self.object = object }
}
