import AppleIDButtons
import AppleIDProvider
import AppleIDServer
import Hummingbird
import Logging
import ServiceLifecycle

/// The button images and their gallery (`/appleid/button…`), with the gallery pre-rendered in the
/// background. Only `siwa serve` adds them: they need FreeType and libpng.
struct ButtonAddition: ServerAddition {
    let images: ButtonImages

    var services: [any Service] { [ButtonGalleryPrerenderer(images: images)] }

    func register(on router: Router<AppleIDRequestContext>, provider: AppleIDProvider, pages: PageRenderer) {
        ButtonEndpoints(images: images, pages: pages, random: provider.random).register(on: router)
    }
}
