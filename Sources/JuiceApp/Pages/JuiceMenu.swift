/// The juices on the menu: what anyone may browse without an account.
struct JuiceItem: Sendable, Hashable {
    var slug: String
    var name: String
    var emoji: String
    var description: String
    var price: String
    /// "a" or "an", chosen by the name's first sound ("an Orange Sunrise", "a Crisp Apple").
    var article: String

    init(slug: String, name: String, emoji: String, description: String, price: String) {
        self.slug = slug
        self.name = name
        self.emoji = emoji
        self.description = description
        self.price = price
        self.article = Self.indefiniteArticle(for: name)
    }

    /// "an" before a vowel letter, "a" otherwise (the menu has no "hour" or "unicorn" to mislead it).
    static func indefiniteArticle(for name: String) -> String {
        guard let first = name.first?.lowercased() else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}

enum JuiceMenu {
    static let items: [JuiceItem] = [
        JuiceItem(slug: "orange", name: "Orange Sunrise", emoji: "🍊", description: "Freshly squeezed Valencia oranges.", price: "$4.50"),
        JuiceItem(slug: "apple", name: "Crisp Apple", emoji: "🍏", description: "Green apples, a hint of lemon.", price: "$4.00"),
        JuiceItem(slug: "carrot", name: "Carrot Ginger", emoji: "🥕", description: "Carrots, ginger and a little orange.", price: "$5.00"),
        JuiceItem(slug: "berry", name: "Berry Blast", emoji: "🫐", description: "Blueberries, strawberries and apple.", price: "$5.50"),
    ]

    static func item(_ slug: String) -> JuiceItem? { items.first { $0.slug == slug } }
}
