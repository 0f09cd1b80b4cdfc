@_exported import FactoryWrappers
