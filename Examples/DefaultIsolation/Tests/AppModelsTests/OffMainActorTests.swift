import AppModels
import FactoryTesting
import Testing

// Factory resolution is synchronous: `resolve()` runs the factory's closure on
// the calling thread. The closures in `Container+App.swift` are main-actor
// code, so resolving one of them from a detached task, without
// `resolveOnMainActor()`, stops the process. Each test runs that in a child
// process (`#expect(processExitsWith:)`) and checks the message.

private func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

@Suite struct OffMainActorTests {
    @Test func aMainActorFactoryResolvedFromADetachedTaskStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // The property is main-actor: reading it needs `await`, and hands
            // back a `Factory` value. Calling that factory does not hop.
            let factory = await Container.shared.viewModel
            _ = await Task.detached { factory.resolve() }.value
        }
        #expect(
            standardError(result).contains(
                "Container.viewModel<ViewModel> has a factory closure isolated to the main actor "
                    + "but was resolved off the main actor"))
    }

    @Test func aMainActorParameterFactoryResolvedFromADetachedTaskStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factory = await Container.shared.itemList
            _ = await Task.detached { factory((name: "Inbox", count: 3)) }.value
        }
        #expect(standardError(result).contains("has a factory closure isolated to the main actor"))
    }
}
