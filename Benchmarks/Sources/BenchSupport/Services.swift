// The types every benchmark builds. They live in their own module so that the
// optimizer cannot inline or delete their construction in one benchmark and
// not in another: every library and the baseline pays the same call.

/// A class with no dependencies (scenarios 1, 2, 3, 7, 8, 9, 11).
public class Svc: @unchecked Sendable {
    public init() {}
}

/// What scenario 7 registers over `Svc`.
public final class MockSvc: Svc, @unchecked Sendable {
    public override init() {}
}

/// The three levels of scenario 4: `A(B(C))`.
public final class C: Sendable {
    public init() {}
}

public final class B: Sendable {
    public let c: C
    public init(c: C) { self.c = c }
}

public final class A: Sendable {
    public let b: B
    public init(b: B) { self.b = b }
}

/// Scenario 5: `Root` needs the same graph-scoped `Dep` twice.
public final class Dep: Sendable {
    public init() {}
}

public final class Root: Sendable {
    public let a: Dep
    public let b: Dep
    public init(a: Dep, b: Dep) {
        self.a = a
        self.b = b
    }
}

/// Scenario 6: built from a parameter.
public final class PSvc: Sendable {
    public let value: Int
    public init(value: Int) { self.value = value }
}

/// Scenario 8's hand-written equivalent of a class with three injected properties.
public final class PlainHolder {
    public let a: Svc
    public let b: Svc
    public let c: Svc
    public init(a: Svc, b: Svc, c: Svc) {
        self.a = a
        self.b = b
        self.c = c
    }
}
