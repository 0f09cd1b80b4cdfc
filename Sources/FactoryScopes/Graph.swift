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
        super.init(strategy: GraphStrategy())
    }
}
