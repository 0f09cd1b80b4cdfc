@_exported import FactoryCore
