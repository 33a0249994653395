//! Content-IDs of the parts a request sends (RFC 2392), and the `cid:` URLs that name them.

/// A value unique within the process and very probably across processes and hosts: the time in
/// nanoseconds, the process id and a counter, in hex.
pub(crate) fn unique_token() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{nanos:x}.{:x}.{n:x}", std::process::id())
}

/// Percent-encodes a Content-ID for a `cid:` URL (RFC 2392 §2: the URL form of an addr-spec).
pub(crate) fn cid_url(content_id: &str) -> String {
    let mut out = String::from("cid:");
    for b in content_id.bytes() {
        if b.is_ascii_alphanumeric() || b"@.-_~!$&'*+=^`{|}".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
