// Factories the snippets of the README and of the DocC articles use without declaring
// them. Snippets marked `<!-- snippet: standalone -->` declare their own and are
// checked without this file.
import FactoryWrappers

extension Container {
    var myService: Factory<any MyServiceType> { self { MyService() } }
    var repository: Factory<Repository> { self { Repository(service: self.myService()) } }
    var imageCache: Factory<ImageCache> { self { ImageCache() }.cached }
    var editor: Factory<Editor> { self { Editor() }.shared }
    var currentUser: Factory<User?> { self { nil } }
    var analytics: Factory<any Analytics> { self { LiveAnalytics() } }
    var network: Factory<any Networking> { self { NetworkClient() }.singleton }
}

final class OrderContainer: SharedContainer {
    static let shared = OrderContainer()
    let manager = ContainerManager()
}

extension OrderContainer {
    var orders: Factory<OrderService> { self { OrderService(network: Container.shared.network()) }.cached }
}

extension OrderContainer {
    var checkout: Factory<any Checkout> { self { LiveCheckout() } }
}

func placeOrder() -> Bool {
    OrderContainer.shared.checkout().pay()
}

// Writing Tests
extension Container {
    var api: Factory<any APIClient> { self { LiveAPIClient() }.singleton }
    var clock: Factory<any AppClock> { self { SystemClock() } }
    var logger: Factory<any Logger> { self { PrintLogger() } }
    var feed: Factory<FeedModel> { self { FeedModel(api: self.api(), clock: self.clock()) } }
}
