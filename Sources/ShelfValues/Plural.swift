/// A count with its noun, singular or plural as English wants it: "1 chapter", "3 chapters", "0 copies". Every
/// sentence that counts something says it through here, so that "1 chapters" cannot come back one message at a time.
public enum Plural {
    /// "`n` `singular`" when `n` is 1, else "`n` `plural`" (the singular with an s unless given).
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
