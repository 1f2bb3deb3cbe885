extension CaptureLog: CustomStringConvertible {
    /// One line: how many transactions it keeps of its capacity, and whether it is capturing.
    public var description: String {
        "CaptureLog(\(transactions.count) of \(capacity) kept\(isCapturing ? "" : ", paused"))"
    }
}
