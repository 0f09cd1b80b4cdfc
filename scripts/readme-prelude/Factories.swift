// Factories the README snippets use without declaring them. Snippets marked
// `<!-- snippet: standalone -->` declare their own and are checked without this file.
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
