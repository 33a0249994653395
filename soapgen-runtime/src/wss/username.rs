//! `wsse:UsernameToken` (OASIS WSS UsernameToken Profile 1.1).

use std::fmt;

use super::{
    base64, random_bytes, UtcTime, WssError, BASE64_BINARY, PASSWORD_DIGEST, PASSWORD_TEXT,
    WSSE11_NS, WSSE_NS, WSU_NS,
};
use crate::xml::{Name, XmlWriter};

/// How the password travels (UsernameToken Profile 1.1 §3.1, the `Type` attribute of
/// `wsse:Password`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PasswordType {
    /// `#PasswordText`: the password itself. Only over TLS.
    Text,
    /// `#PasswordDigest`: Base64(SHA-1(nonce + created + password)) with a fresh `Nonce` and
    /// `Created` (§3.1, §4), so the password does not travel.
    Digest,
    /// No `wsse:Password` at all (§3.1 makes it optional; WS-SecurityPolicy 1.2 §5.4.1
    /// `sp:NoPassword`): the username alone, for a service that authenticates the sender by
    /// other means (a signature, TLS) and takes the name from the token.
    None,
    /// No `wsse:Password`: a `wsse11:Salt` and `wsse11:Iteration` instead, from which the sender
    /// and the service derive a key from the password (§4,
    /// [`UsernameToken::derive_key`]) that signs with HMAC-SHA1: the token endorses the message
    /// ([`WssConfig::username_token_endorses`](super::WssConfig::username_token_endorses)).
    DerivedKey,
}

/// The `Iteration` of a [`PasswordType::DerivedKey`] token: 1000, the least UsernameToken Profile
/// 1.1 §4 recommends, as WSS4J sends.
pub const DERIVED_KEY_ITERATIONS: u32 = 1000;

/// A username and password sent as `wsse:UsernameToken` (UsernameToken Profile 1.1 §3):
///
/// ```xml
/// <wsse:UsernameToken wsu:Id="UT-…">
///   <wsse:Username>alice</wsse:Username>
///   <wsse:Password Type="…#PasswordDigest">Base64(SHA-1(nonce + created + password))</wsse:Password>
///   <wsse:Nonce EncodingType="…#Base64Binary">16 random bytes, base64</wsse:Nonce>
///   <wsu:Created>2026-11-30T10:00:00.123Z</wsu:Created>
/// </wsse:UsernameToken>
/// ```
///
/// A [`text`](Self::text) token has only `Username` and `Password` unless
/// [`with_nonce`](Self::with_nonce) adds `Nonce` and `Created` (§4, against replay). The
/// `Debug` form shows the username, never the password.
#[derive(Clone, PartialEq, Eq)]
pub struct UsernameToken {
    username: String,
    password: String,
    kind: PasswordType,
    nonce: bool,
}

impl UsernameToken {
    /// A `PasswordText` token (§3.1).
    pub fn text(username: impl Into<String>, password: impl Into<String>) -> Self {
        UsernameToken {
            username: username.into(),
            password: password.into(),
            kind: PasswordType::Text,
            nonce: false,
        }
    }

    /// A `PasswordDigest` token (§3.1): always with `Nonce` and `Created`.
    pub fn digest(username: impl Into<String>, password: impl Into<String>) -> Self {
        UsernameToken {
            username: username.into(),
            password: password.into(),
            kind: PasswordType::Digest,
            nonce: true,
        }
    }

    /// A token with the username only, no `wsse:Password` ([`PasswordType::None`]; SP 1.2
    /// §5.4.1 `sp:NoPassword`).
    pub fn without_password(username: impl Into<String>) -> Self {
        UsernameToken {
            username: username.into(),
            password: String::new(),
            kind: PasswordType::None,
            nonce: false,
        }
    }

    /// A token whose password derives a key instead of travelling ([`PasswordType::DerivedKey`],
    /// UsernameToken Profile 1.1 §4): `Username`, a fresh 16-byte `wsse11:Salt` (its first byte
    /// 0x01: for a MAC) and `wsse11:Iteration` [`DERIVED_KEY_ITERATIONS`]. What WS-SecurityPolicy's
    /// endorsing UsernameTokens are (CXF, WSS4J). The token signs nothing by itself: pair it
    /// with [`WssConfig::username_token_endorses`](super::WssConfig::username_token_endorses).
    /// It has no `Nonce` or `Created` ([`with_nonce`](Self::with_nonce) leaves it unchanged).
    pub fn derived_key(username: impl Into<String>, password: impl Into<String>) -> Self {
        UsernameToken {
            username: username.into(),
            password: password.into(),
            kind: PasswordType::DerivedKey,
            nonce: false,
        }
    }

    /// The key UsernameToken Profile 1.1 §4 derives from `password`, `salt` and `iterations`:
    /// K1 = SHA-1(UTF-8(password) || salt), Ki = SHA-1(Ki-1), the 20 bytes of the last
    /// (`iterations` below 1 count as 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use soapgen_runtime::wss::{DigestAlgorithm, UsernameToken};
    /// // One iteration: SHA-1 of the password then the salt (printf 'secret\001\002' | openssl sha1).
    /// let k1 = UsernameToken::derive_key("secret", &[1, 2], 1);
    /// assert_eq!(k1[..], DigestAlgorithm::Sha1.digest(b"secret\x01\x02")[..]);
    /// // Each further one: SHA-1 of the one before.
    /// let k2 = UsernameToken::derive_key("secret", &[1, 2], 2);
    /// assert_eq!(k2[..], DigestAlgorithm::Sha1.digest(&k1)[..]);
    /// ```
    pub fn derive_key(password: &str, salt: &[u8], iterations: u32) -> [u8; 20] {
        let sha1 = |parts: &[&[u8]]| {
            let mut ctx =
                aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY);
            for p in parts {
                ctx.update(p);
            }
            let mut out = [0u8; 20];
            out.copy_from_slice(ctx.finish().as_ref());
            out
        };
        let mut k = sha1(&[password.as_bytes(), salt]);
        for _ in 1..iterations.max(1) {
            k = sha1(&[&k]);
        }
        k
    }

    /// Whether a `PasswordText` token (or one without password) also carries `Nonce` and
    /// `Created` (§4; default `false`). A `PasswordDigest` token always does.
    #[must_use]
    pub fn with_nonce(mut self, on: bool) -> Self {
        self.nonce = on || self.kind == PasswordType::Digest;
        self
    }

    /// The username.
    pub fn username(&self) -> &str {
        &self.username
    }

    /// The password (for checking a response's token).
    pub(crate) fn password(&self) -> &str {
        &self.password
    }

    /// How the password is sent.
    pub fn password_type(&self) -> PasswordType {
        self.kind
    }

    /// The `PasswordDigest` of `password` for a nonce (raw bytes, not base64) and a `Created`
    /// value exactly as written in the message: Base64(SHA-1(nonce + created + password))
    /// (UsernameToken Profile 1.1 §3.1).
    ///
    /// # Examples
    ///
    /// ```
    /// // The same as: (head -c 16 /dev/zero; printf %s "$created$password") | openssl sha1 -binary | base64
    /// use soapgen_runtime::wss::UsernameToken;
    /// let nonce = [0u8; 16];
    /// let d = UsernameToken::password_digest(&nonce, "2026-11-30T10:00:00.000Z", "secret");
    /// assert_eq!(d, "7Sw3BfONjwkXcKvPOP2h7AmIMvw=");
    /// ```
    pub fn password_digest(nonce: &[u8], created: &str, password: &str) -> String {
        let mut ctx = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY);
        ctx.update(nonce);
        ctx.update(created.as_bytes());
        ctx.update(password.as_bytes());
        base64(ctx.finish().as_ref())
    }

    /// Writes the token with `wsu:Id="{id}"`, using `now` as `Created`; the key a
    /// [`PasswordType::DerivedKey`] token derives, if it is one.
    pub(crate) fn write(
        &self,
        w: &mut XmlWriter,
        id: &str,
        now: UtcTime,
    ) -> Result<Option<[u8; 20]>, WssError> {
        w.start_element(Name::new(WSSE_NS, "UsernameToken"))?;
        w.attribute(Name::new(WSU_NS, "Id"), id)?;
        if self.kind == PasswordType::DerivedKey {
            w.declare_namespace("wsse11", WSSE11_NS)?;
        }
        w.simple_element(Name::new(WSSE_NS, "Username"), self.username.as_str())?;
        if self.kind == PasswordType::DerivedKey {
            let mut salt = random_bytes::<16>()?;
            salt[0] = 0x01; // §4: a key for a MAC
            w.simple_element(Name::new(WSSE11_NS, "Salt"), base64(&salt).as_str())?;
            w.simple_element(
                Name::new(WSSE11_NS, "Iteration"),
                DERIVED_KEY_ITERATIONS.to_string().as_str(),
            )?;
            w.end_element()?;
            return Ok(Some(Self::derive_key(
                &self.password,
                &salt,
                DERIVED_KEY_ITERATIONS,
            )));
        }
        let (nonce, created) = if self.nonce {
            (Some(random_bytes::<16>()?), Some(now.to_string()))
        } else {
            (None, None)
        };
        match (self.kind, &nonce, &created) {
            (PasswordType::None | PasswordType::DerivedKey, _, _) => {}
            (PasswordType::Digest, Some(n), Some(c)) => {
                w.start_element(Name::new(WSSE_NS, "Password"))?;
                w.attribute(Name::unqualified("Type"), PASSWORD_DIGEST)?;
                w.text(&Self::password_digest(n, c, &self.password))?;
                w.end_element()?;
            }
            _ => {
                w.start_element(Name::new(WSSE_NS, "Password"))?;
                w.attribute(Name::unqualified("Type"), PASSWORD_TEXT)?;
                w.text(&self.password)?;
                w.end_element()?;
            }
        }
        if let (Some(n), Some(c)) = (nonce, created) {
            w.start_element(Name::new(WSSE_NS, "Nonce"))?;
            w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
            w.text(&base64(&n))?;
            w.end_element()?;
            w.simple_element(Name::new(WSU_NS, "Created"), c.as_str())?;
        }
        w.end_element()?;
        Ok(None)
    }
}

impl fmt::Debug for UsernameToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UsernameToken")
            .field("username", &self.username)
            .field("password", &"***")
            .field("type", &self.kind)
            .field("nonce", &self.nonce)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_matches_the_profile() {
        // Base64(SHA-1(nonce + created + password)) computed independently:
        // (head -c 16 /dev/zero; printf %s '2026-11-30T10:00:00.000Zsecret') | openssl sha1 -binary | base64
        let d = UsernameToken::password_digest(&[0u8; 16], "2026-11-30T10:00:00.000Z", "secret");
        assert_eq!(d, DIGEST_ZERO_NONCE);
    }

    const DIGEST_ZERO_NONCE: &str = "7Sw3BfONjwkXcKvPOP2h7AmIMvw=";

    #[test]
    fn debug_hides_the_password() {
        let t = UsernameToken::digest("alice", "hunter2");
        let s = format!("{t:?}");
        assert!(s.contains("alice") && !s.contains("hunter2"), "{s}");
    }

    #[test]
    fn writes_text_and_digest() {
        let now = UtcTime::from_unix_millis(0);
        let mut w = XmlWriter::new();
        UsernameToken::text("a<b", "p&q")
            .write(&mut w, "UT-1", now)
            .unwrap();
        let s = w.into_string().unwrap();
        assert!(s.contains(">a&lt;b</"), "{s}");
        assert!(s.contains("#PasswordText\">p&amp;q</"), "{s}");
        assert!(!s.contains("Nonce"), "{s}");

        let mut w = XmlWriter::new();
        UsernameToken::digest("alice", "secret")
            .write(&mut w, "UT-1", now)
            .unwrap();
        let s = w.into_string().unwrap();
        assert!(s.contains("#PasswordDigest\">"), "{s}");
        assert!(s.contains("#Base64Binary\">"), "{s}");
        assert!(s.contains(">1970-01-01T00:00:00.000Z</"), "{s}");
        assert!(!s.contains("secret"), "{s}");

        let mut w = XmlWriter::new();
        UsernameToken::without_password("bob")
            .with_nonce(true)
            .write(&mut w, "UT-1", now)
            .unwrap();
        let s = w.into_string().unwrap();
        assert!(s.contains(">bob</"), "{s}");
        assert!(!s.contains("Password"), "{s}");
        assert!(s.contains("Nonce") && s.contains("Created"), "{s}");
    }
}
