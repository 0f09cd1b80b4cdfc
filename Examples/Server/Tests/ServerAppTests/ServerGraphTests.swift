import FactoryTesting
import Foundation
import ServerApp
import Testing

extension LiveServerTests {
    /// Every factory of the server, from the catalog the FactoryCatalog plugin
    /// generates (`FactoryCatalog+ServerApp.swift`; ci.sh checks it is current),
    /// validates in a per-request container with no capture, and the graph the README
    /// shows is the one this run draws. Among the serialized live-server suites:
    /// validation opens a catalog store, which `AsyncServiceTests` counts.
    @Suite struct ServerGraphTests {
        @Test(.container) func everyFactoryValidatesAndTheREADMEShowsTheirGraph() throws {
            // As for a request: a container of its own, marked per-request.
            Container.shared.manager.isPerRequest = true
            let report = FactoryCatalog.serverApp.validate()
            #expect(report.isValid, "\(report)")
            #expect(report.validation.entries.count == FactoryCatalog.serverApp.entries.count)

            let readme = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md")
            let text = try String(contentsOf: readme, encoding: .utf8)
            let block = text.components(separatedBy: "```mermaid\n").dropFirst().first?
                .components(separatedBy: "```").first
            #expect(block == report.mermaid(), "README.md's mermaid block; catalog validation drew:\n\(report.mermaid())")
        }
    }
}
