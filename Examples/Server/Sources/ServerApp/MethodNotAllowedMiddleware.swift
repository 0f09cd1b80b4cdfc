import HTTPTypes
import Hummingbird

/// Answers `405 Method Not Allowed`, with an `Allow` header listing the methods
/// the path takes, to a request whose path the router serves with other methods.
///
/// Hummingbird's router answers such a request `404 Not Found`, as it answers a
/// path it does not serve. Add this middleware after every route: a router runs
/// middleware added after its routes only for the requests no route matched, so
/// it costs the matched ones nothing. Paths are compared as written, which suits
/// routes without parameters, as this server's are.
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods of each path, in the order of the `Allow` header.
    private let methods: [String: [HTTPRequest.Method]]

    /// A middleware for the routes of a router.
    ///
    /// - Parameters:
    ///   - routes: The router's routes (`router.routes`), read after the last one was added.
    ///   - headForGet: Whether a path that takes `GET` also takes `HEAD`, as with
    ///     the router option `.autoGenerateHeadEndpoints`, whose `HEAD` routes are
    ///     not in `routes`.
    public init(routes: [Router<Context>.RouteDescription], headForGet: Bool) {
        var methods: [String: [HTTPRequest.Method]] = [:]
        for route in routes {
            methods[Self.normalized(route.path.description), default: []].append(route.method)
        }
        if headForGet {
            for (path, taken) in methods where taken.contains(.get) && !taken.contains(.head) {
                methods[path]?.append(.head)
            }
        }
        self.methods = methods.mapValues { $0.sorted { $0.rawValue < $1.rawValue } }
    }

    /// Answers `405` when another method of the path exists, and passes the request on otherwise.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let allowed = methods[Self.normalized(request.uri.path)], !allowed.contains(request.method) else {
            return try await next(request, context)
        }
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        throw HTTPError(
            .methodNotAllowed,
            headers: [.allow: list],
            message: "\(request.method.rawValue) is not allowed on \(request.uri.path); it takes \(list)"
        )
    }

    /// The path with one leading slash and no trailing one, as the router matches it.
    private static func normalized(_ path: String) -> String {
        "/" + path.split(separator: "/").joined(separator: "/")
    }
}
