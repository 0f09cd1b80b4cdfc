import FactoryWrappers
import MiniApp
import Observation
import SwiftUI
import Synchronization
import Testing

// `@InjectedObservable` resolves an `@Observable` model once, on the view's first
// read, and `$model.nickname` binds to its property.
@MainActor @Suite(.serialized) struct InjectedObservableTests {
    @Test func theViewShowsTheResolvedModel() {
        Container.$shared.withValue(Container()) {
            #expect(StandInHost.render(ProfileView()).texts == ["Hello, Ada"])
        }
    }

    @Test func theFactoryRunsOnTheFirstReadOnly() {
        Container.$shared.withValue(Container()) {
            let before = ProfileModel.made
            let view = ProfileView()
            #expect(ProfileModel.made == before, "a view value that is never rendered does not resolve")
            _ = StandInHost.render(view)
            _ = StandInHost.render(view)
            #expect(ProfileModel.made == before + 1)
        }
    }

    @Test func aBindingThroughTheProjectedValueWritesTheObservedProperty() async throws {
        try await Container.$shared.withValue(Container()) {
            let view = ProfileView()
            let nickname = try #require(StandInHost.render(view).field("Nickname"))
            #expect(await nickname.read() == "Ada")

            let changed = ChangeFlag()
            let rendered = withObservationTracking {
                StandInHost.render(view)
            } onChange: {
                changed.set()
            }
            #expect(rendered.texts == ["Hello, Ada"])
            await nickname.write("Grace")
            #expect(changed.isSet, "Observation saw the write the binding made")
            #expect(StandInHost.render(view).texts == ["Hello, Grace"])
        }
    }
}

/// Set once by an observation's `onChange`, which may run on any thread.
final class ChangeFlag: Sendable {
    private let flag = Mutex(false)

    func set() { flag.withLock { $0 = true } }

    var isSet: Bool { flag.withLock { $0 } }
}
