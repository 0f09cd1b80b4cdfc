// A shop's start-up, for the profile of step 8: services that take time to open and
// load, as real ones do (a database, a catalog from disk), simulated with sleeps.
import Dispatch
import FactoryWrappers

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Simulated start-up work.
func work(milliseconds: UInt32) { usleep(milliseconds * 1000) }

/// Opens its connection: 20 ms. One per process: `.singleton`.
final class Database: Sendable {
    /// Signalled when an opening starts: step 8's main thread waits for it, so that it always finds the catalog
    /// being built by the warm-up thread, however busy the machine.
    static let opening = DispatchSemaphore(value: 0)

    init() {
        Self.opening.signal()
        work(milliseconds: 20)
    }
}

/// Loads the products from the database: 10 ms.
final class Catalog: Sendable {
    let database: Database
    init(database: Database) {
        self.database = database
        work(milliseconds: 10)
    }
}

/// Ranks the catalog: 5 ms.
final class Recommendations: Sendable {
    let catalog: Catalog
    init(catalog: Catalog) {
        self.catalog = catalog
        work(milliseconds: 5)
    }
}

/// The first screen: 1 ms of its own.
final class Storefront: Sendable {
    let catalog: Catalog
    let recommendations: Recommendations
    let images: ImageCache
    init(catalog: Catalog, recommendations: Recommendations, images: ImageCache) {
        self.catalog = catalog
        self.recommendations = recommendations
        self.images = images
        work(milliseconds: 1)
    }
}

extension Container {
    var database: Factory<Database> {
        self { Database() }.singleton
    }

    var catalog: Factory<Catalog> {
        self { Catalog(database: self.database()) }.cached
    }

    var recommendations: Factory<Recommendations> {
        self { Recommendations(catalog: self.catalog()) }.cached
    }

    var storefront: Factory<Storefront> {
        self {
            Storefront(catalog: self.catalog(), recommendations: self.recommendations(), images: self.imageCache())
        }.cached
    }
}
