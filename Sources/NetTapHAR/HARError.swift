import NetTapCore

/// A HAR file that cannot be read: an `InputError` naming the file, the place in it and what is wrong.
///
/// ```
/// broken.har:5:1: invalid JSON: unexpected character '"' after an array
/// export.har: $.log.entries[0].request: missing required field "url"
/// gone.har: cannot read file: no such file
/// ```
public typealias HARError = InputError
