#if SwiftConcurrency
/// As written, with or without a parameter, so no wrapping closure is allocated.
@usableFromInline
package struct AsyncClosure<P, T>: Sendable {
    @usableFromInline let plain: (@Sendable () async throws -> T)?
    @usableFromInline let withParameter: (@Sendable (P) async throws -> T)?

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init(plain: @escaping @Sendable () async throws -> T) {
        self.plain = plain
        withParameter = nil
    }

    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init(withParameter: @escaping @Sendable (P) async throws -> T) {
        plain = nil
        self.withParameter = withParameter
    }

    package func callAsFunction(_ parameter: P) async throws -> T {
        do {
            if let plain { return try await plain() }
            return try await withParameter!(parameter)
        } catch {
            AsyncThrowLog.log(error)
            throw error
        }
    }
}
#endif
