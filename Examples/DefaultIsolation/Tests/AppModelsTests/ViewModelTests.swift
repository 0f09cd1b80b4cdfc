import AppModels
import FactoryTesting
import Testing

// This test target, like the app's modules, is main-actor by default: the
// suites and tests below are main-actor code, and so are the closures they
// register.

@Suite(.container)
struct ViewModelTests {
    @Test func theViewModelSeesAMockRegisteredInTheTest() {
        Container.shared.greetingService.register { MockGreetingService() }
        #expect(Container.shared.viewModel().title == "mock greets guest")
    }

    // The trait's closure is not isolated: `@MainActor` lets it reach the main-actor factory, as with Factory.
    @Test(.container { @MainActor in $0.greetingService.register { MockGreetingService("trait") } })
    func theViewModelSeesAMockRegisteredByTheTrait() {
        #expect(Container.shared.viewModel().title == "trait greets guest")
    }

    @Test func withNothingRegisteredTheLiveServiceIsUsed() {
        #expect(Container.shared.viewModel().title == "Hello, guest!")
    }

    @Test func theSingletonSessionBelongsToThisTest() {
        Container.shared.session().signIn("Grace")
        #expect(Container.shared.session() === Container.shared.session())
        #expect(Container.shared.viewModel().title == "Hello, Grace!")
    }

    @Test func theCachedFormatterIsOnePerContainerUntilReset() {
        let first = Container.shared.countFormatter()
        #expect(Container.shared.countFormatter() === first)
        Container.shared.manager.reset(scope: .cached)
        #expect(Container.shared.countFormatter() !== first)
    }

    @Test func theParameterFactoryPassesItsParameterAndCanBeReplaced() {
        #expect(Container.shared.itemList((name: "Inbox", count: 1)).summary == "1 item in Inbox")
        Container.shared.itemList.register { ItemListViewModel(listName: "Mock \($0.name)", count: 0) }
        #expect(Container.shared.itemList((name: "Inbox", count: 1)).summary == "0 items in Mock Inbox")
    }

    @Test func aNonisolatedFactoryResolvesOffTheMainActor() async {
        let version = await Task.detached { Container.shared.buildInfo().version }.value
        #expect(version == "1.0")
    }

    @Test func resolveOnMainActorBuildsAMainActorModelFromADetachedTask() async {
        let model = await Task.detached { await Container.shared.viewModel.resolveOnMainActor() }.value
        #expect(model.title == "Hello, guest!")
    }
}
