@_exported import FactoryScopes
