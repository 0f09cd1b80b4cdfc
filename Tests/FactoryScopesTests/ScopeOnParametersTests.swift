import FactoryScopes
import FactoryTestSupport
import Testing

@Suite struct ScopeOnParametersTests {
    @Test func firstParameterWinsWithoutIt() {
        let container = ScopeContainer()
        #expect(container.firstParameterWins(1).id == 1)
        #expect(container.firstParameterWins(2).id == 1)
    }

    @Test func oneInstancePerDistinctParameter() {
        let container = ScopeContainer()
        let one = container.perParameter(1)
        let two = container.perParameter(2)
        #expect(one.id == 1)
        #expect(two.id == 2)
        #expect(container.perParameter(1) === one)
        #expect(container.perParameter(2) === two)
    }

    @Test func collidingHashesNeverShare() {
        let container = ScopeContainer()
        let a = container.colliding(Colliding(value: 1))
        let b = container.colliding(Colliding(value: 2))
        #expect(a.id == 1)
        #expect(b.id == 2)
        #expect(container.colliding(Colliding(value: 1)) === a)
    }

    @Test func resetDropsEveryParameter() {
        let container = ScopeContainer()
        let one = container.perParameter(1)
        container.perParameter.reset(.scope)
        #expect(container.perParameter(1) !== one)
    }
}
