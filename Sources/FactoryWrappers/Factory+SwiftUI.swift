#if canImport(SwiftUI)
import SwiftUI

// Factory 3's SwiftUI return types for its set-up sugar. Each registers, as its
// FactoryCore twin does, and returns an `EmptyView`, so that it stands as a
// statement in a `#Preview` body (a view builder):
//
//     #Preview {
//         Container.shared.service.preview { MockService() }
//         ContentView()
//     }
//
// FactoryCore's forms, which return the factory or the container, are
// `@_disfavoredOverload`: these win wherever both fit.

extension FactoryModifying {
    /// Registers `factory` for a preview and returns an `EmptyView`, so the call
    /// stands as a statement in a `#Preview` body.
    ///
    /// ```swift
    /// #Preview {
    ///     Container.shared.service.preview { MockService() }
    ///     ContentView()
    /// }
    /// ```
    ///
    /// The registration is the same as ``FactoryModifying/register(isolation:factory:)``'s
    /// and lasts until the factory or its container is reset.
    @discardableResult
    public func preview(isolation: isolated (any Actor)? = #isolation, factory: Closure) -> EmptyView {
        register(isolation: isolation, factory: factory)
        return EmptyView()
    }

    /// Registers `factory` and returns an `EmptyView` (Factory 3.2's registration
    /// sugar), so the call stands as a statement in a `#Preview` body.
    ///
    /// ```swift
    /// #Preview {
    ///     Container.shared.service { MockService() }
    ///     ContentView()
    /// }
    /// ```
    @discardableResult
    public func callAsFunction(isolation: isolated (any Actor)? = #isolation, factory: Closure) -> EmptyView {
        register(isolation: isolation, factory: factory)
        return EmptyView()
    }
}

#if SwiftConcurrency
extension FactoryModifying where Closure == (P) -> T {
    /// ``preview(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func preview(factory: @escaping @MainActor (P) -> T) -> EmptyView {
        register(factory: factory)
        return EmptyView()
    }

    /// ``callAsFunction(isolation:factory:)`` with a closure written `{ @MainActor in ... }`.
    @discardableResult
    public func callAsFunction(factory: @escaping @MainActor (P) -> T) -> EmptyView {
        register(factory: factory)
        return EmptyView()
    }
}
#endif

extension ManagedContainer {
    /// Runs `transform` on this container and returns an `EmptyView`, so the
    /// transform stands as a statement in a `#Preview` body.
    ///
    /// ```swift
    /// #Preview {
    ///     Container.shared { $0.service { MockService() } }
    ///     ContentView()
    /// }
    /// ```
    @discardableResult
    public func callAsFunction(_ transform: (Self) -> Void) -> EmptyView {
        transform(self)
        return EmptyView()
    }
}

extension SharedContainer {
    /// Runs `transform` on the shared instance and returns an `EmptyView`.
    ///
    /// Factory 3.2 deprecates this form for the container transform.
    @available(*, deprecated, message: "use the container transform: Container.shared { ... }")
    @discardableResult
    public static func preview(_ transform: (Self) -> Void) -> EmptyView {
        transform(shared)
        return EmptyView()
    }

    /// Runs `transform` on this container and returns an `EmptyView`.
    ///
    /// Factory 3.2 deprecates this form for the container transform.
    @available(*, deprecated, message: "use the container transform: Container.shared { ... }")
    @discardableResult
    public func preview(_ transform: (Self) -> Void) -> EmptyView {
        transform(self)
        return EmptyView()
    }
}
#endif
