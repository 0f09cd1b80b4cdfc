import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct ConcurrencyTests {
    @Test func resolveRegisterAndResetFromManyThreads() {
        let container = Container()
        let failures = Collector<String>()
        let greetings = Set(["hello"] + (0..<8).map { "t\($0)" })
        runOnThreads(8) { index in
            for round in 0..<300 {
                switch (index + round) % 6 {
                case 0: container.greeting.register { MockGreeting("t\(index)") }
                case 1: container.greeting.reset()
                case 2: container.manager.push()
                case 3: container.manager.pop()
                case 4: container.numbered.register { Service(id: $0 + 1_000 * (index + 1)) }
                default: break
                }
                // Whatever ran meanwhile, a resolution gets what the definition or one
                // registration builds, for the parameter it passed.
                let text = container.consumer().greeting.text
                if !greetings.contains(text) { failures.append("a greeting no closure makes: \(text)") }
                let id = container.numbered(round).id
                if id % 1_000 != round || id / 1_000 > 8 { failures.append("round \(round) resolved #\(id)") }
            }
        }
        let failed = failures.values
        #expect(failed.count == 0, "the first of them: \(failed.prefix(3))")
    }

    /// `register` replaces the options that resolutions on other threads read without
    /// a lock. A reader must hold its own reference before it leaves the read section
    /// that keeps the old options alive; in an optimized build the compiler once moved
    /// that retain past the section's end, and a resolution then retained freed memory
    /// (a crash in `FactoryStress`, release builds only, about one run in three).
    /// A failure here is a crash or a wrong value: one no registration makes, or
    /// one older than a value the same reader already got (registrations happen
    /// in order, and a reader that saw one never sees an earlier one again).
    @Test func resolutionsNeverUseOptionsThatRegisterReplaced() {
        let container = Container()
        let wrong = Counter()
        // The crash this guards against happened in optimized builds only; a debug
        // build (and so a sanitizer run, several times slower) makes fewer rounds so
        // that it ends well within the watchdog on a loaded machine.
        #if DEBUG
        let registrations = 10_000
        #else
        let registrations = 60_000
        #endif
        // More threads than cores, so that readers are preempted inside the window;
        // the watchdog turns a hang into a failure.
        let finished = finishes(8) { index in
            if index == 0 {
                for round in 1...registrations {
                    let id = round
                    container.numbered.register { Service(id: $0 + id) }
                }
            } else {
                var last = 0
                for _ in 0..<registrations {
                    let id = container.numbered(0).id
                    if id < last || id > registrations { wrong.increment() }
                    last = id
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        #expect(container.numbered(0).id == registrations)
    }

    @Test func registrationsMadeOnOneThreadAreSeenOnOthers() {
        let container = Container()
        container.greeting.register { MockGreeting("shared") }
        let texts = Collector<String>()
        runOnThreads(4) { _ in texts.append(container.greeting().text) }
        #expect(texts.values == Array(repeating: "shared", count: 4))
    }

    @Test func eachThreadRegistersInItsOwnContainerWithoutLoss() {
        let seen = Collector<Bool>()
        runOnThreads(8) { index in
            let container = Container()
            for round in 0..<100 {
                container.numbered.register { Service(id: $0 + index * 1000 + round) }
                seen.append(container.numbered(0).id == index * 1000 + round)
            }
        }
        #expect(seen.values.count == 800)
        #expect(seen.values.allSatisfy { $0 })
    }
}
