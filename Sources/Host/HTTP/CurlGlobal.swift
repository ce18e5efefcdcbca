import CCurl

/// curl_global_init is not thread-safe and must run once before any handle exists.
/// A Swift global is initialised exactly once, atomically, on first use.
enum CurlGlobal {
    static let isReady: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
}
