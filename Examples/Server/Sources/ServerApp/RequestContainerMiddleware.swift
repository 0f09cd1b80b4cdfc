import FactoryScopes
import HTTPTypes
import Hummingbird

/// Runs each request with its own ``FactoryCore/Container``.
///
/// The middleware makes a fresh container, registers the request's user and
/// identifier into it, and binds it to the `Container.shared` task-local for
/// the rest of the request. Every `Container.shared` resolution made while the
/// request runs, including across `await`s, uses that container: `.cached`
/// services live as long as the request, `.singleton` services are the
/// process-wide instances every request shares.
///
/// When the request ends, the middleware shuts the container down, which runs
/// the `onShutdown` closures of what it cached: after the handler returned or
/// threw, also when the client went away meanwhile (Hummingbird lets the handler
/// finish) or the request's task was cancelled. A response
/// body is written after the middleware returns, so it must not use the
/// request's services: the handlers here return bodies encoded up front.
///
/// Every response carries the request's `X-Request-ID`, an error's too (a `400`
/// for bad query options, the `500` of `/fail`, a `404`). The client's id is
/// taken only within ``RequestHeaders``' limits; otherwise the server makes one up.
public struct RequestContainerMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the request with a fresh container bound to `Container.shared`.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let container = Container()
        // Lets graph validation, strict mode and the captive-dependency log catch an
        // app-wide instance that keeps one of this request's.
        container.manager.isPerRequest = true
        let number = container.requestCounter().next()
        // The client's id only within its limits (RequestHeaders): it is echoed and logged.
        let requestID = RequestHeaders.requestID(request.headers[.xRequestID], number: number)
        let user: User
        do {
            user = try RequestHeaders.user(request.headers[.xUser])
        } catch {
            throw ErrorWithRequestID(error: error, requestID: requestID)
        }
        // Counts this container, and its release: a registration holds it until the
        // container is freed (RequestLifetimes, checked by the load run).
        let lifetime = ContainerLifetime()
        container.currentUser.register { withExtendedLifetime(lifetime) { user } }
        container.requestID.register { requestID }
        if request.headers[.xTrace] == "1" {
            let logger = context.logger
            container.manager.logger = { line in
                logger.info("\(line)", metadata: ["request": "\(requestID)"])
            }
            container.manager.trace = true
        }

        let outcome: Result<Response, any Error>
        do {
            outcome = .success(try await Container.$shared.withValue(container) { try await next(request, context) })
        } catch {
            outcome = .failure(error)
        }
        // Runs in a task of its own inside `shutdown()`: a cancelled request still ends its services.
        // One second is plenty for ending a session; and a `shutdown(timeout:)` whose timer
        // started keeps about 0.8 KB until its timeout has passed, so under load a longer
        // one holds more memory: README, "Under load".
        do {
            try await container.manager.shutdown(timeout: .seconds(1))
        } catch {
            context.logger.error("request container shutdown failed: \(error)", metadata: ["request": "\(requestID)"])
        }
        switch outcome {
        case .success(var response):
            response.headers[.xRequestID] = requestID
            return response
        case .failure(let error):
            // Thrown on, so that Hummingbird (and any middleware outside this one) answers
            // it as it would have, but with the header every other response carries.
            throw ErrorWithRequestID(error: error, requestID: requestID)
        }
    }
}

/// A request's error, answered as Hummingbird answers it, plus the request's `X-Request-ID`.
///
/// Hummingbird answers an `HTTPResponseError` with the response it generates,
/// and any other error with an empty `500 Internal Server Error`.
struct ErrorWithRequestID: HTTPResponseError {
    let error: any Error
    let requestID: String

    var status: HTTPResponse.Status {
        (error as? any HTTPResponseError)?.status ?? .internalServerError
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if let error = error as? any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } else {
            // What Hummingbird logs for an error it cannot answer; this wrapper hides it from it.
            context.logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
            response = Response(status: .internalServerError)
        }
        response.headers[.xRequestID] = requestID
        return response
    }
}
