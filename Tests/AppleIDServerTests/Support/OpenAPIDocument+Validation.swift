import Foundation

/// Checks JSON answers against the document's schemas: the subset of JSON Schema the admin API's
/// document uses (`$ref`, `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `oneOf`). An object may hold no property that its schema does not name, unless the schema says
/// `additionalProperties`, so an answer's undocumented field fails.
extension OpenAPIDocument {
    /// The schema of the JSON answer of `METHOD /path` with `status`, references followed.
    func responseSchema(_ operation: String, status: Int) throws -> [String: Any] {
        let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
        let paths = root["paths"] as? [String: Any]
        let item = (paths?[parts[1]] as? [String: Any])?[parts[0].lowercased()] as? [String: Any]
        guard var response = (item?["responses"] as? [String: Any])?[String(status)] as? [String: Any] else {
            throw Malformed(description: "\(operation) documents no \(status) answer")
        }
        response = try resolved(response)
        let json = (response["content"] as? [String: Any])?["application/json"] as? [String: Any]
        guard let schema = json?["schema"] as? [String: Any] else { throw Malformed(description: "\(operation) \(status) has no JSON schema") }
        return try resolved(schema)
    }

    /// What is wrong with `value` by `schema`; empty when nothing is.
    func violations(of value: Any, against schema: [String: Any], at place: String = "$") throws -> [String] {
        let schema = try resolved(schema)
        if let branches = schema["oneOf"] as? [[String: Any]] {
            let fits = try branches.contains { try violations(of: value, against: $0, at: place).isEmpty }
            return fits ? [] : ["\(place): fits none of oneOf"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
            return ["\(place): \(value) is not one of \(allowed)"]
        }
        let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        if value is NSNull { return types.isEmpty || types.contains("null") ? [] : ["\(place): null"] }
        if !types.isEmpty, !types.contains(where: { Self.value(value, is: $0) }) { return ["\(place): \(value) is not \(types)"] }
        if let object = value as? [String: Any] {
            return try violations(of: object, against: schema, at: place)
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            return try array.enumerated().flatMap { try violations(of: $1, against: items, at: "\(place)[\($0)]") }
        }
        return []
    }

    private func violations(of object: [String: Any], against schema: [String: Any], at place: String) throws -> [String] {
        let properties = (schema["properties"] as? [String: Any]) ?? [:]
        var found = ((schema["required"] as? [String]) ?? []).filter { object[$0] == nil }.map { "\(place): \($0) is required" }
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            if let property = properties[key] as? [String: Any] {
                found += try violations(of: value, against: property, at: "\(place).\(key)")
            } else if let additional = schema["additionalProperties"] as? [String: Any] {
                found += try violations(of: value, against: additional, at: "\(place).\(key)")
            } else if schema["additionalProperties"] as? Bool != true {
                found.append("\(place).\(key) is not in the document")
            }
        }
        return found
    }

    private static func value(_ value: Any, is type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean", "integer", "number": value is NSNumber || value is Bool || value is Int || value is Double
        default: false
        }
    }

    /// `schema` itself, or what its `$ref` (`#/components/...`) points to.
    private func resolved(_ schema: [String: Any]) throws -> [String: Any] {
        guard let reference = schema["$ref"] as? String else { return schema }
        var node: Any? = root
        for part in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] }
        guard let target = node as? [String: Any] else { throw Malformed(description: "no \(reference)") }
        return try resolved(target)
    }
}
