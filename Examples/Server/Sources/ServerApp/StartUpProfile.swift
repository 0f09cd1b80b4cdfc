import FactoryProfiling
import FactoryScopes
import Hummingbird
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FactoryServer --profile <path>`: a ``FactoryCore/FactoryProfile`` of the server's cold start, from launch
/// until it has answered its first request, of every container (the app's and the first request's own).
///
/// Made first thing at launch, it records until ``finish()``: ``buildApplication(host:port:logLevel:wiring:services:startUpProfile:onListening:)``
/// calls it once the first response is ready, and `FactoryServer` again when it stops (a server stopped before any
/// request writes what its launch built). The first call writes the Chrome trace to the path and prints the
/// summary; later calls do nothing.
public final class StartUpProfile: Sendable {
    private let recording: FactoryProfile.Recording
    /// Where the Chrome trace goes.
    public let path: String
    private let finished = Atomic(false)

    /// Starts recording every container's builds.
    public init(path: String) {
        recording = FactoryProfile.start()
        self.path = path
    }

    /// Stops recording, writes the trace and prints `start-up profile: ...` and the summary, the first time; returns
    /// the profile then, `nil` after.
    @discardableResult
    public func finish() -> FactoryProfile? {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        let profile = recording.stop()
        let trace = profile.chromeTrace()
        if let file = fopen(path, "w") {
            let written = fputs(trace, file) >= 0
            if fclose(file) == 0 && written {
                print("start-up profile: \(profile.builds.count) builds, Chrome trace written to \(path)")
            } else {
                print("start-up profile: could not write \(path)")
            }
        } else {
            print("start-up profile: could not open \(path) for writing")
        }
        print(profile.summary)
        fflush(nil)  // stdout is a pipe under the tests
        return profile
    }
}

/// Finishes the ``StartUpProfile`` once the first response is ready.
struct StartUpProfileMiddleware<Context: RequestContext>: RouterMiddleware {
    let profile: StartUpProfile

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        defer { profile.finish() }
        return try await next(request, context)
    }
}
