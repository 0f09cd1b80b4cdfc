/// A per-container scope that holds instances weakly. `Scope.shared` is one.
///
/// The instance is kept while something else holds a strong reference to it;
/// after that the next resolution builds a new one. Values that are not class
/// instances (structs, enums, `nil`) cannot be held weakly and are never cached.
public final class Shared: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in the container's cache.

    /// Creates a weak cache distinct from every other scope.
    public init() {
        super.init(strategy: ContainerCellsStrategy(weak: true))
    }
}
