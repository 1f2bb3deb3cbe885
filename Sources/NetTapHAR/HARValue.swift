import NetTapCore

/// A JSON value kept as read: the custom `_`-prefixed fields of a HAR 1.2 file (HAR 1.2 allows them on every
/// object), for example Chrome's `_initiator` or `_priority`, which NetTap keeps so that a file it rewrites
/// loses nothing.
///
/// The same type as `JSONValue` (key order free, integers exact).
public typealias HARValue = JSONValue
