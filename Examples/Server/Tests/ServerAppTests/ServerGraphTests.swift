import FactoryTesting
import Foundation
import ServerApp
import Testing

/// The server's factories validate, with no capture, and the graph the README
/// shows is the one graph validation draws from them.
@Suite struct ServerGraphTests {
    @Test func theGraphInTheREADMEIsTheServers() throws {
        // As for a request: a container of its own, marked per-request.
        let container = Container()
        container.manager.isPerRequest = true
        let report = container.graphReport(\.greeter, \.requestCounter, \.inFlight, \.connectionPool)
        #expect(report.isValid, "\(report)")

        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let block = text.components(separatedBy: "```mermaid\n").dropFirst().first?.components(separatedBy: "```").first
        #expect(block == report.mermaid(), "README.md's mermaid block; graph validation drew:\n\(report.mermaid())")
    }
}
