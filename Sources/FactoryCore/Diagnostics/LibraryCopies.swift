import CFactoryAtomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Says so when a process holds several copies of this library.
///
/// Each dynamic library (or framework) that links the library statically carries a
/// copy of its own, with its own `Container.shared`, singletons and registrations:
/// a mock registered through one copy is not seen by code that uses another, and a
/// singleton is built once per copy. Nothing else would tell. The first container a
/// copy makes asks the dynamic loader for another copy (`cfactory_library_copies`,
/// which writes the message); the first copy of the process that finds one reports
/// it, naming the two images, and the process reports once. In DEBUG builds it goes
/// where misuse goes: the running
/// FactoryTesting test fails with it, or the program stops. In release builds it is
/// written to standard error and the program goes on. The environment variable
/// `FACTORY_ALLOW_LIBRARY_COPIES=1` silences it, for a process that means to have
/// copies.
enum LibraryCopies {
    /// Looks for other copies the first time this copy makes a container; a load after that.
    static func check() {
        // Without the trait (the small core for static tools, which load no library
        // that could hold a copy) the check is left out, and so is its code.
        #if SwiftConcurrency
        guard let found = cfactory_library_copies() else { return }
        #if DEBUG
        let message = String(cString: found)
        free(found)
        if let reporter = FactoryTestHooks.reporter, reporter.recordIssue(message) { return }
        fatalError(message)
        #else
        cfactory_write_standard_error(found)
        free(found)
        #endif
        #endif
    }
}
