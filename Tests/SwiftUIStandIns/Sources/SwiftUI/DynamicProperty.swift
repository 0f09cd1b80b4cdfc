/// An interface for a stored variable that updates an external property of a view.
public protocol DynamicProperty {
    /// Updates the underlying value of the stored value.
    mutating func update()
}

extension DynamicProperty {
    /// Updates the underlying value of the stored value.
    public mutating func update() {}
}
