// Test isolation binds a container per test through `Container.$shared`, which
// exists only with the package's default `SwiftConcurrency` trait.
#if !SwiftConcurrency
#error("FactoryTesting needs the Factory package's SwiftConcurrency trait (on by default)")
#endif
