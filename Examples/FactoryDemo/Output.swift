#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

/// `text` with every line indented by `spaces`.
func indented(_ text: String, by spaces: Int = 2) -> String {
    let indent = String(repeating: " ", count: spaces)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
}

/// Writes `text` to the file at `path`, or says why it could not.
func writeFile(_ path: String, _ text: String) {
    guard let file = fopen(path, "w") else {
        print("  could not open \(path) for writing")
        return
    }
    fputs(text, file)
    fclose(file)
}
