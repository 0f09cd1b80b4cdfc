// SwiftUI re-exports Combine and Observation: an app that imports SwiftUI alone
// declares `ObservableObject`s with `@Published` properties and `@Observable` models.
@_exported import Combine
@_exported import Observation
