import Foundation
import Readium

/// An item a format plugin rendered (`shelf render`): its content, and the place it starts at when the plugin
/// said so.
public struct RenderedItem: Sendable {
    public let content: Data
    public let locator: Locator?

    package init(content: Data, locator: Locator?) {
        self.content = content
        self.locator = locator
    }
}
