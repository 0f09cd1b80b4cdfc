import FactoryScopes

// Factories that resolve: validation finds nothing wrong with them.
extension Container {
    var clock: Factory<Clock> {
        self { Clock() }.singleton
    }

    /// The API client, one per container.
    public var api: Factory<API> {
        self { API(clock: self.clock()) }.cached
    }

    var feed: Factory<Feed> {
        self { Feed(api: self.api()) }
    }

    var greeter: ParameterFactory<String, Greeter> {
        self { Greeter(name: $0) }
    }

    /// No sample is given for it: the report lists it as unchecked.
    var pager: ParameterFactory<Int, Pager> {
        self { Pager(page: $0) }
    }

    var report: AsyncParameterFactory<String, Report> {
        self { Report(period: $0) }
    }

    var store: AsyncFactory<Store> {
        self { Store() }.singleton
    }

    @MainActor var viewModel: Factory<ViewModel> {
        self { ViewModel(feed: self.feed()) }
    }
}
