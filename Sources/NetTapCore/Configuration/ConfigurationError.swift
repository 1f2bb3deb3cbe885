/// A `nettap.json` (or a section file) that cannot be used: an ``InputError`` naming the file, the JSON path (see
/// `ConfigNode`) or the line and column of a syntax error.
public typealias ConfigurationError = InputError
