import Foundation

/// An error as an admin answer reports it, at its top or in one of its `results` (a headless
/// authorization's refusal travels in its result): OAuth's `error` and `error_description`, and for
/// the native sheet `ASAuthorizationError`'s number as `code`.
public struct AdminRefusal: Codable, Sendable, Equatable {
    public var error: String?
    public var errorDescription: String?
    /// `ASAuthorizationError`'s number; a string `code` (an authorization code in a result) is no error number.
    public var code: Int?
    public var results: [AdminRefusal]?

    public init(error: String? = nil, errorDescription: String? = nil, code: Int? = nil, results: [AdminRefusal]? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.code = code
        self.results = results
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try? container.decodeIfPresent(String.self, forKey: .error)
        errorDescription = try? container.decodeIfPresent(String.self, forKey: .errorDescription)
        code = try? container.decodeIfPresent(Int.self, forKey: .code)
        results = try? container.decodeIfPresent([AdminRefusal].self, forKey: .results)
    }

    /// The first answer that reports an error: this one, else the first of its results that does.
    public var firstError: AdminRefusal? {
        error != nil ? self : results?.first { $0.error != nil }
    }

    enum CodingKeys: String, CodingKey {
        case error, code, results
        case errorDescription = "error_description"
    }
}

/// The answer of a call that answers nothing (204), or whose answer the caller does not read.
public struct NoAnswer: Codable, Sendable, Equatable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {}
}

/// The body of a call that sends none.
public struct NoBody: Encodable, Sendable {
    public init() {}
}
