import FactoryKit
import ShopCheckout
import ShopDomain

/// The payment processor the app registers.
public final class CardProcessor: PaymentProcessor {
    /// A processor.
    public init() {}

    /// Charges anything below 10,000.
    public func charge(cents: Int) -> Bool {
        cents < 10_000
    }
}

/// Prints receipts for the checkout.
public final class ReceiptPrinter: Sendable {
    let paper: String

    init(paper: String) {
        self.paper = paper
    }
}

// Factories on a container another module declares.
extension CheckoutContainer {
    /// Prints the checkout's receipts.
    public var receipts: Factory<ReceiptPrinter> {
        self { ReceiptPrinter(paper: self.paper()) }.cached
    }

    #if os(Linux)
    var paper: Factory<String> {
        self { "thermal" }
    }
    #else
    var paper: Factory<String> {
        self { "A4" }
    }
    #endif

    // Private: a test target cannot reach it; the catalog lists it as skipped.
    private var printerFirmware: Factory<String> {
        self { "1.0" }
    }
}
