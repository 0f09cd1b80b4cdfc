// FactoryKit is the module name of Factory 3.x. A Factory 3 app that switches to
// this package keeps `import FactoryKit` and its product line: this module
// re-exports the whole runtime stack (FactoryWrappers, FactoryScopes, FactoryCore).
// Test targets link FactoryTesting, as with Factory 3.
@_exported import FactoryWrappers
