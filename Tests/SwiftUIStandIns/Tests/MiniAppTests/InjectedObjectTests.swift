import FactoryWrappers
import MiniApp
import SwiftUI
import Testing

// `@InjectedObject` resolves an `ObservableObject` into the view's `StateObject`, and
// `$model.name` binds to its `@Published` property.
@MainActor @Suite struct InjectedObjectTests {
    @Test func theViewShowsTheResolvedModel() {
        Container.$shared.withValue(Container()) {
            #expect(StandInHost.render(ContentView()).texts == ["Hello, World"])
        }
    }

    @Test func theModelIsResolvedFromTheContainerCurrentWhenTheViewIsMade() {
        let mocked = Container()
        mocked.contentViewModel.register {
            let model = ContentViewModel()
            model.name = "registered"
            return model
        }
        // Made under `mocked`, rendered (and resolved) after that scope ended.
        let view = Container.$shared.withValue(mocked) { ContentView() }
        #expect(StandInHost.render(view).texts == ["Hello, registered"])
    }

    @Test func aBindingThroughTheProjectedValueWritesThePublishedProperty() throws {
        try Container.$shared.withValue(Container()) {
            let view = ContentView()
            let first = StandInHost.render(view)
            let name = try #require(first.field("Name"))
            #expect(name.wrappedValue == "World")

            let model = Container.shared.contentViewModel()
            let given = GivenModelPreview(model: model)
            let field = try #require(StandInHost.render(given).field("Name"))
            let sentBefore = model.objectWillChange.sentCount
            field.wrappedValue = "Grace"
            #expect(model.name == "Grace")
            #expect(model.objectWillChange.sentCount == sentBefore + 1)
            #expect(StandInHost.render(given).texts == ["Hello, Grace"])

            name.wrappedValue = "Alan"
            #expect(StandInHost.render(view).texts == ["Hello, Alan"])
        }
    }

    @Test func aModelGivenToTheWrapperIsUsedInsteadOfResolving() {
        let container = Container()
        container.contentViewModel.register { fatalError("the given model must be used") }
        Container.$shared.withValue(container) {
            let model = ContentViewModel()
            model.name = "given"
            #expect(StandInHost.render(GivenModelPreview(model: model)).texts == ["Hello, given"])
        }
    }
}
