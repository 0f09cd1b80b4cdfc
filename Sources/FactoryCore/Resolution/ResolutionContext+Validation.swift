/// FactoryTesting's graph validation hook: what a validating thread does instead
/// of stopping the program.
///
/// A thread that validates a graph sets ``ResolutionContext/validation`` on its own
/// context, so the hook is per thread and never seen by other resolutions. Swift
/// cannot unwind out of a factory closure, so a failure that resolution cannot go
/// past (a cycle) goes to ``abort(_:)``, which must never return: FactoryTesting
/// records it and parks the validating thread. A failure that resolution can go
/// past (an unregistered promise, which then resolves to `nil`) goes to ``record(_:)``.
package protocol ResolutionValidating: AnyObject {
    /// Records a failure after which resolution goes on.
    func record(_ error: FactoryError)
    /// Records a failure after which resolution cannot go on; never returns.
    func abort(_ error: FactoryError) -> Never
}

extension ResolutionContext {
    /// Whether a graph validation runs on this thread; out of line, so the inlined
    /// cycle check pays for it only when the container turned cycle checking off.
    @usableFromInline
    package var isValidating: Bool {
        validation != nil
    }

    /// Hands `error` to the graph validation running on this thread, if any, and
    /// returns whether there was one.
    package func recordForValidation(_ error: FactoryError) -> Bool {
        guard let validation else { return false }
        validation.record(error)
        return true
    }
}
