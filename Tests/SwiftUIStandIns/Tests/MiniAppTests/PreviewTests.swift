import FactoryWrappers
import MiniApp
import SwiftUI
import Testing

// Factory 3's three documented `#Preview` forms, each as the statements of a view
// builder (what a `#Preview` body is), rendered by the stand-in host: each preview
// registers its mock, and the view it shows resolves that mock.
@MainActor @Suite struct PreviewTests {
    @Test func factoryPreviewRegistersTheMock() {
        Container.$shared.withValue(Container()) {
            #expect(StandInHost.render(FactoryPreviewPreview()).texts == ["preview greets World"])
        }
    }

    @Test func theContainerTransformRegistersTheMock() {
        Container.$shared.withValue(Container()) {
            #expect(StandInHost.render(ContainerTransformPreview()).texts == ["transform greets World"])
        }
    }

    @Test func theRegistrationSugarRegistersTheMock() {
        Container.$shared.withValue(Container()) {
            #expect(StandInHost.render(RegistrationSugarPreview()).texts == ["sugar greets Ada"])
        }
    }

    @Test func aParameterFactorysFormsRegisterTheirMocks() {
        Container.$shared.withValue(Container()) {
            #expect(
                StandInHost.render(ParameterFactoryPreview()).texts == ["preview greets Grace", "sugar greets Alan"])
        }
    }

    @available(*, deprecated, message: "renders the deprecated container forms")
    @Test func theDeprecatedContainerFormsRegisterTheirMocks() {
        Container.$shared.withValue(Container()) {
            #expect(StandInHost.render(DeprecatedContainerPreview(onTheType: true)).texts == ["static preview greets World"])
        }
        Container.$shared.withValue(Container()) {
            #expect(
                StandInHost.render(DeprecatedContainerPreview(onTheType: false)).texts == ["instance preview greets World"])
        }
    }

    @Test func eachFormReturnsAnEmptyViewWhereSwiftUIExists() {
        // Factory's return types: the library compiled its SwiftUI branch here.
        let container = Container()
        let forms: [EmptyView] = [
            container.greeting.preview { MockGreeting("a") },
            container.greeting { MockGreeting("b") },
            container { $0.greeting { MockGreeting("c") } },
            container.greetingFor.preview { $0 },
            container.greetingFor { $0 },
        ]
        #expect(forms.count == 5)
        #expect(container.greetingFor("x") == "x")
    }

    @Test func theFactoryFormsStayAvailableWhereAFactoryIsExpected() {
        let container = Container()
        let factory: Factory<any Greeting> = container.greeting.preview { MockGreeting("typed") }
        let again: Factory<any Greeting> = container.greeting { MockGreeting("typed sugar") }
        let same: Container = container { $0.greeting { MockGreeting("typed transform") } }
        #expect(factory().greet("x") == "typed transform greets x")
        #expect(again().greet("y") == "typed transform greets y")
        #expect(same === container)
    }
}
