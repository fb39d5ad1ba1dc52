import Hummingbird

/// The menu, open to everyone; ordering needs an account and asks for it only then.
struct BrowseRoutes: Sendable {
    let services: JuiceServices

    func register(on router: Router<JuiceRequestContext>) {
        router.get("/") { _, context in
            try services.pages.render("home", title: "Menu", ["juices": JuiceMenu.items.map(Self.values)], context: context)
        }
        router.get("/juices/:slug") { _, context in
            let juice = try Self.juice(context)
            return try services.pages.render("juice", title: juice.name, ["juice": Self.values(juice)], context: context)
        }
        router.get("/order/:slug") { request, context in
            let juice = try Self.juice(context)
            guard context.account != nil else { return JuiceServices.signInFirst(next: request.uri.path) }
            return try services.pages.render("order", title: "Order", ["juice": Self.values(juice)], context: context)
        }
        router.post("/order/:slug") { request, context in
            let juice = try Self.juice(context)
            _ = try await FormInput.decode(CSRFOnlyForm.self, from: request, context: context)
            guard let account = context.account else { return JuiceServices.signInFirst(next: request.uri.path) }
            let placedAt = try await services.orders.place(juice: juice.name, accountID: account.id)
            services.orderMailer?.confirm(juiceName: juice.name, for: account, at: placedAt)
            return try services.pages.render(
                "ordered", title: "Thank you",
                [
                    "juiceName": juice.name, "firstName": account.firstName, "email": account.email,
                    "mailable": account.emailForwarding,
                ], context: context)
        }
    }

    private static func juice(_ context: JuiceRequestContext) throws -> JuiceItem {
        guard let slug = context.parameters.get("slug"), let juice = JuiceMenu.item(slug) else { throw UserFacingError.unknownJuice }
        return juice
    }

    static func values(_ juice: JuiceItem) -> [String: Any] {
        [
            "slug": juice.slug, "name": juice.name, "emoji": juice.emoji, "description": juice.description, "price": juice.price,
            "article": juice.article,
        ]
    }
}
