import FactoryKit

/// A note: what the app is about.
public struct Note: Sendable, Equatable {
    /// Its title.
    public let title: String
    /// When it was written, in the clock's units.
    public let written: Int

    /// A note titled `title`, written at `written`.
    public init(title: String, written: Int) {
        self.title = title
        self.written = written
    }
}

/// Keeps notes. The domain says what it needs; NotesData says how.
public protocol NoteStore: Sendable {
    /// Keeps `note`.
    func save(_ note: Note)
    /// Every note kept, oldest first.
    func all() -> [Note]
}

/// Tells the time.
public protocol Clock: Sendable {
    /// The time now.
    func now() -> Int
}

/// The clock used unless another is registered: counts from 1.
final class CountingClock: Clock {
    private let ticks = Ticks()

    func now() -> Int {
        ticks.next()
    }
}

// The domain's factories: a promise the app fulfils, and a default any module may override.
extension Container {
    /// Where notes are kept: registered by the app at start-up (`autoRegister()`).
    public var noteStore: Factory<(any NoteStore)?> {
        promised()
    }

    /// The clock notes are stamped with.
    public var clock: Factory<any Clock> {
        self { CountingClock() }.singleton
    }
}
