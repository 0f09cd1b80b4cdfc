import FactoryCore
print("todo")
