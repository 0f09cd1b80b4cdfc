/// The scope that shares an instance within one resolution cycle. `Scope.graph` is the one to use.
///
/// ```swift
/// var idProvider: Factory<any IDProviding> { self { self.common() } }
/// var valueProvider: Factory<any ValueProviding> { self { self.common() } }
/// private var common: Factory<CommonService> { self { CommonService() }.graph }
/// ```
///
/// A consumer resolved from a factory gets the same `CommonService` through both
/// providers. The cycle needs a root: two sibling `@Injected` properties of an
/// object you create yourself are two separate cycles. Cycles belong to their
/// thread, so two threads resolving at once never share a graph instance.
public final class Graph: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in each thread's resolution context.

    init() {
        super.init(behavior: GraphCache())
    }
}

/// Keeps instances in the current thread's resolution cycle.
struct GraphCache: ScopeBehavior {
    func resolve<T>(_ request: ScopeRequest, build: () -> T) -> (value: T, isNew: Bool) {
        let slotKey = ScopeStorage.SlotKey(key: request.key, parameter: request.parameter)
        let context = ResolutionContext.current
        if let box = context.graph[slotKey] {
            return (unsafeDowncast(box, to: StrongBox<T>.self).value, false)
        }
        let value = build()
        context.graph[slotKey] = StrongBox(value)
        return (value, true)
    }
}
