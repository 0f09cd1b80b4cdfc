import FactoryWrappers
print("todo")
