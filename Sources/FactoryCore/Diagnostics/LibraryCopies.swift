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
/// copy makes looks for the others (cfactory_library_copies); when there are more
/// copies than were reported, the message names the images that hold them. In
/// DEBUG builds it goes where misuse goes: the running FactoryTesting test fails
/// with it, or the program stops; in release builds it is one line on standard
/// error and the program goes on. The environment variable
/// `FACTORY_ALLOW_LIBRARY_COPIES=1` silences it, for a process that means to have
/// copies.
enum LibraryCopies {
    /// Looks for other copies the first time this copy makes a container; a load after that.
    static func check() {
        guard let found = cfactory_library_copies() else { return }
        let lines = String(cString: found).split(separator: "\n").map(String.init)
        free(found)
        report(message(copies: lines.first ?? "several", images: lines.dropFirst()))
    }

    static func message(copies: String, images: ArraySlice<String>) -> String {
        "FactoryCore: this process has loaded \(copies) copies of the Factory library, each with its own "
            + "Container.shared, singletons and registrations: what is registered or built through one is not "
            + "seen through another. The copies are in:\n"
            + images.map { "  \($0)\n" }.joined()
            + "Link it once: give every dynamic library (framework) of the app the product FactoryKitDynamic "
            + "instead of a static one, and let a test target add FactoryTesting only where that adds no copy "
            + "(the article \"Modular apps\" says how). A process that means to have several copies sets the "
            + "environment variable FACTORY_ALLOW_LIBRARY_COPIES=1."
    }

    private static func report(_ message: String) {
        #if DEBUG
        if let reporter = FactoryTestHooks.reporter, reporter.recordIssue(message) { return }
        fatalError(message)
        #else
        cfactory_write_standard_error(message + "\n")
        #endif
    }
}
