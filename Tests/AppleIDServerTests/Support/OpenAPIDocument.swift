import Yams

/// The parts of an OpenAPI document the admin API's tests compare with the server.
struct OpenAPIDocument {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    let root: [String: Any]

    init(yaml: String) throws {
        guard let root = try Yams.load(yaml: yaml) as? [String: Any] else { throw Malformed(description: "not a YAML mapping") }
        self.root = root
    }

    var version: String? { root["openapi"] as? String }

    private var paths: [String: [String: Any]] { (root["paths"] as? [String: [String: Any]]) ?? [:] }

    /// Every operation as `METHOD /path`, e.g. `GET /admin/users`.
    var operations: Set<String> {
        let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        return Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
    }

    /// The names of the schemas that request bodies refer to.
    var requestBodySchemas: Set<String> {
        Set(
            paths.values.flatMap(\.values).compactMap { operation in
                let body = (operation as? [String: Any])?["requestBody"] as? [String: Any]
                let json = (body?["content"] as? [String: Any])?["application/json"] as? [String: Any]
                return ((json?["schema"] as? [String: Any])?["$ref"] as? String)?.split(separator: "/").last.map(String.init)
            })
    }

    /// The property names of `components/schemas/<name>`.
    func propertyNames(ofSchema name: String) throws -> Set<String> {
        let schemas = (root["components"] as? [String: Any])?["schemas"] as? [String: Any]
        guard let schema = schemas?[name] as? [String: Any] else { throw Malformed(description: "no schema \(name)") }
        return Set(((schema["properties"] as? [String: Any]) ?? [:]).keys)
    }
}
