//! What a port's security policy demands, in words (for warnings and `soapgen inspect`), and the
//! credentials a client needs to meet it.

use super::types::{
    AttachmentCoverage, HttpAuthentication, Inclusion, MessagePolicy, PasswordRequirement,
    PortSecurity, ProtectedParts, ProtectionOrder, SecurityBinding, Token, TokenKind,
    X509TokenType, XPathExpression,
};

fn token(t: &Token) -> String {
    let mut s = match &t.kind {
        TokenKind::X509 {
            token_type,
            references,
        } => {
            let mut s = match token_type {
                X509TokenType::PkiPath => "an X.509 certificate path (PkiPath)".to_owned(),
                X509TokenType::V1 => "an X.509 v1 certificate".to_owned(),
                _ => "an X.509 certificate".to_owned(),
            };
            let mut refs = Vec::new();
            if references.issuer_serial {
                refs.push("issuer/serial");
            }
            if references.thumbprint {
                refs.push("thumbprint");
            }
            if references.key_identifier {
                refs.push("key identifier");
            }
            if references.embedded {
                refs.push("embedded");
            }
            if !refs.is_empty() {
                s.push_str(&format!(" referenced by {}", refs.join(" or ")));
            }
            s
        }
        TokenKind::Username {
            password,
            created,
            nonce,
            ..
        } => {
            let mut s = match password {
                PasswordRequirement::Text => "a UsernameToken with its password",
                PasswordRequirement::Hash => "a UsernameToken with a password digest",
                PasswordRequirement::None => "a UsernameToken without password",
            }
            .to_owned();
            match (created, nonce) {
                (true, true) => s.push_str(", a Nonce and Created"),
                (true, false) => s.push_str(", Created"),
                (false, true) => s.push_str(", a Nonce"),
                (false, false) => {}
            }
            s
        }
        TokenKind::Https {
            client_certificate,
            http_authentication,
        } => {
            let mut s = "HTTPS".to_owned();
            if *client_certificate {
                s.push_str(" with a client certificate");
            }
            match http_authentication {
                Some(HttpAuthentication::Basic) => s.push_str(" and HTTP Basic authentication"),
                Some(HttpAuthentication::Digest) => s.push_str(" and HTTP Digest authentication"),
                None => {}
            }
            s
        }
        TokenKind::KeyValue => "an RSA key value".to_owned(),
        TokenKind::SecureConversation { bootstrap, .. } => {
            let b = message(bootstrap);
            if b.is_empty() {
                "a WS-SecureConversation security context".to_owned()
            } else {
                format!("a WS-SecureConversation security context (requested with {b})")
            }
        }
    };
    match t.inclusion {
        Inclusion::Never => s.push_str(" (never sent)"),
        Inclusion::Once => s.push_str(" (sent once)"),
        _ => {}
    }
    if t.derived_keys {
        s.push_str(" with derived keys");
    }
    s
}

fn parts(what: &str, p: &ProtectedParts) -> Option<String> {
    if p.is_empty() {
        return None;
    }
    let mut items = Vec::new();
    if p.body {
        items.push("the Body".to_owned());
    }
    // The named headers of one namespace together: `headers To, Action of {ns}`.
    let mut namespaces: Vec<&str> = Vec::new();
    for h in &p.headers {
        if !namespaces.contains(&h.namespace.as_str()) {
            namespaces.push(&h.namespace);
        }
    }
    for ns in namespaces {
        let of_ns = p.headers.iter().filter(|h| h.namespace == ns);
        let names: Vec<&str> = of_ns.clone().filter_map(|h| h.name.as_deref()).collect();
        match names.as_slice() {
            [] => {}
            [one] => items.push(format!("header {{{ns}}}{one}")),
            many => items.push(format!("headers {} of {{{ns}}}", many.join(", "))),
        }
        if of_ns.clone().any(|h| h.name.is_none()) {
            items.push(format!("every header of {ns}"));
        }
    }
    match p.attachments {
        Some(AttachmentCoverage::Content) => {
            items.push("the attachments (their content)".to_owned());
        }
        Some(AttachmentCoverage::Complete) => {
            items.push("the attachments (MIME headers and content)".to_owned());
        }
        None => {}
    }
    for x in &p.elements {
        items.push(format!("{} when present", expanded(x)));
    }
    Some(format!("{what} {}", items.join(", ")))
}

/// An XPath of the elements assertions with its names expanded, as header blocks are named
/// (`//{http://www.example.org/schema/DoubleIt}DoubleIt/numberToDouble`): its prefixes are the
/// policy's, which the reader of a description cannot see.
fn expanded(x: &XPathExpression) -> String {
    x.steps
        .iter()
        .map(|s| {
            let sep = if s.descendant { "//" } else { "/" };
            if s.name.ns.is_empty() {
                format!("{sep}{}", s.name.local)
            } else {
                format!("{sep}{{{}}}{}", s.name.ns, s.name.local)
            }
        })
        .collect()
}

/// A request's demands, in words.
pub fn message(p: &MessagePolicy) -> String {
    words(p, false)
}

/// A response's demands, in words: supporting tokens are the requester's (SP 1.2 §8), and
/// what a transport binding protects, TLS protects.
pub fn response(p: &MessagePolicy) -> String {
    words(p, true)
}

fn words(p: &MessagePolicy, response: bool) -> String {
    let mut out = Vec::new();
    match &p.binding {
        Some(SecurityBinding::Transport {
            token: t,
            properties,
        }) => {
            let mut s = format!("TransportBinding over {}", token(t));
            if properties.include_timestamp {
                s.push_str(", a Timestamp");
            }
            out.push(s);
        }
        Some(SecurityBinding::Asymmetric {
            initiator_signature,
            recipient_encryption,
            properties,
            protection,
            ..
        }) => {
            let mut s = format!("AsymmetricBinding ({})", properties.suite.name);
            let mut does = Vec::new();
            if let Some(t) = initiator_signature {
                does.push(format!("the client signs with {}", token(t)));
            }
            if let Some(t) = recipient_encryption {
                does.push(format!("encrypts for {}", token(t)));
            }
            if !does.is_empty() {
                s.push_str(&format!(": {}", does.join(", ")));
            }
            if properties.include_timestamp {
                s.push_str(", a Timestamp");
            }
            if protection.order == ProtectionOrder::EncryptBeforeSigning {
                s.push_str(", encrypt before signing");
            }
            if protection.encrypt_signature {
                s.push_str(", the signature encrypted");
            }
            if protection.protect_tokens {
                s.push_str(", tokens signed");
            }
            out.push(s);
        }
        Some(SecurityBinding::Symmetric {
            signature,
            properties,
            protection,
            ..
        }) => {
            let mut s = match signature.kind {
                TokenKind::SecureConversation { .. } => format!(
                    "SymmetricBinding ({}): the key of {}",
                    properties.suite.name,
                    token(signature)
                ),
                _ => format!(
                    "SymmetricBinding ({}): a key of the client's protected by {}",
                    properties.suite.name,
                    token(signature)
                ),
            };
            if properties.include_timestamp {
                s.push_str(", a Timestamp");
            }
            if protection.order == ProtectionOrder::EncryptBeforeSigning {
                s.push_str(", encrypt before signing");
            }
            out.push(s);
        }
        None => {}
    }
    if !response {
        for s in &p.supporting {
            let message_security = matches!(
                p.binding,
                Some(SecurityBinding::Asymmetric { .. } | SecurityBinding::Symmetric { .. })
            );
            let tokens: Vec<String> = s
                .tokens
                .iter()
                .map(|t| match &t.kind {
                    // Its key pair signs: no key derives from one (as CXF and WCF do).
                    TokenKind::X509 { .. } if t.derived_keys && message_security => token(t)
                        .replace(
                            " with derived keys",
                            " (RequireDerivedKeys: the key pair signs)",
                        ),
                    // UsernameToken Profile 1.1 §4: a salt and iteration count travel instead.
                    TokenKind::Username { .. } if s.role.endorses() => format!(
                        "{} (its password derives the key that signs)",
                        token(t).replace(" without password", "")
                    ),
                    _ => token(t),
                })
                .collect();
            out.push(format!("{}: {}", s.role.local_name(), tokens.join(", ")));
        }
    }
    let by_tls = matches!(p.binding, Some(SecurityBinding::Transport { .. }));
    let (signs, encrypts) = if by_tls {
        ("TLS protects", "TLS encrypts")
    } else {
        ("signs", "encrypts")
    };
    out.extend(parts(signs, &p.signed));
    out.extend(parts(encrypts, &p.encrypted));
    if !p.content_encrypted.is_empty() {
        let x: Vec<String> = p.content_encrypted.iter().map(expanded).collect();
        out.push(format!("encrypts the content of {}", x.join(", ")));
    }
    let mut required: Vec<String> = p
        .required_headers
        .iter()
        .map(|h| match &h.name {
            Some(n) => format!("header {{{}}}{n}", h.namespace),
            None => format!("a header of {}", h.namespace),
        })
        .collect();
    required.extend(
        p.required_elements
            .iter()
            .map(|x| format!("element {}", expanded(x))),
    );
    if !required.is_empty() {
        out.push(format!("requires {}", required.join(", ")));
    }
    if p.wss.is_some_and(|w| w.require_signature_confirmation) {
        out.push("signature confirmation".to_owned());
    }
    if out.is_empty() {
        "nothing".to_owned()
    } else {
        out.join("; ")
    }
}

/// A port's demands in words: its first operation's request, and the operations that differ.
pub fn summary(security: &PortSecurity) -> String {
    let mut seen: Vec<(String, Vec<&str>)> = Vec::new();
    for op in &security.operations {
        let Some(p) = op.input.chosen() else { continue };
        let text = message(p);
        match seen.iter_mut().find(|(t, _)| *t == text) {
            Some((_, ops)) => ops.push(&op.wsdl_name),
            None => seen.push((text, vec![&op.wsdl_name])),
        }
    }
    match seen.as_slice() {
        [] => "nothing".to_owned(),
        [(t, _)] => t.clone(),
        many => many
            .iter()
            .map(|(t, ops)| format!("{}: {t}", ops.join(", ")))
            .collect::<Vec<_>>()
            .join(" | "),
    }
}

/// The credentials a client needs for a port's demands, in words, each once.
pub fn credentials(security: &PortSecurity) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: &str| {
        if !out.iter().any(|o| o == s) {
            out.push(s.to_owned());
        }
    };
    for op in &security.operations {
        for (p, response) in [(op.input.chosen(), false), (op.output.chosen(), true)] {
            if let Some(p) = p {
                message_credentials(p, response, &mut add);
            }
        }
    }
    out
}

/// The credentials one message's demands need (a security context's bootstrap's too), each
/// given to `add`.
fn message_credentials(p: &MessagePolicy, response: bool, add: &mut impl FnMut(&str)) {
    match &p.binding {
        Some(SecurityBinding::Transport { token: t, .. }) => {
            add("the CA that issues the service's TLS certificate, unless the system trusts it (ClientBuilder::trust_anchors)");
            if let TokenKind::Https {
                client_certificate,
                http_authentication,
            } = &t.kind
            {
                if *client_certificate {
                    add("a TLS client certificate and key (ClientBuilder::client_identity)");
                }
                if http_authentication.is_some() {
                    add("a username and password for HTTP authentication (Credentials::username)");
                }
            }
        }
        // What the runtime asks for (policy::apply): a signing key when the request
        // signs something or carries the token, the service's certificate when it
        // encrypts; trust when the response must be signed, the client's key when it
        // comes encrypted.
        Some(SecurityBinding::Asymmetric {
            initiator_signature,
            recipient_encryption,
            properties,
            protection,
            ..
        }) if !response => {
            let endorsed = p.supporting.iter().any(|s| s.role.endorses());
            let sent = initiator_signature.as_ref().is_some_and(|t| {
                matches!(
                    t.inclusion,
                    Inclusion::Always | Inclusion::AlwaysToRecipient | Inclusion::Once
                )
            });
            let signs = !p.signed.is_empty()
                || !p.signed.elements.is_empty()
                || properties.include_timestamp
                || protection.protect_tokens
                || endorsed
                || sent;
            if initiator_signature.is_some() && signs {
                add("the client's signing key and certificate (Credentials::signing)");
                if initiator_signature.as_ref().is_some_and(|t| {
                    matches!(
                        t.kind,
                        TokenKind::X509 {
                            token_type: X509TokenType::PkiPath,
                            ..
                        }
                    )
                }) {
                    add("the certificates that issued the client's, for its PkiPath token (Credentials::issuers)");
                }
            }
            if recipient_encryption.is_some() && !p.encrypted.is_empty() {
                add("the service's certificate (Credentials::service_certificate)");
            }
        }
        Some(SecurityBinding::Asymmetric {
            recipient_signature,
            ..
        }) => {
            if recipient_signature.is_some() && !p.signed.is_empty() {
                add("the CA that issues the service's signing certificate (Credentials::trust)");
            }
            if !p.encrypted.is_empty() {
                add("the client's key, which decrypts the responses (Credentials::signing)");
            }
        }
        Some(SecurityBinding::Symmetric { signature, .. }) => {
            add("the service's certificate (Credentials::service_certificate)");
            // A security context's: what its bootstrap needs too.
            if let TokenKind::SecureConversation { bootstrap, .. } = &signature.kind {
                message_credentials(bootstrap, response, add);
            }
        }
        None => {}
    }
    for s in &p.supporting {
        for t in &s.tokens {
            match &t.kind {
                TokenKind::Username { password, .. } => {
                    if s.role.endorses() {
                        add("a username and password (Credentials::username; the password derives the key that signs, it is not sent)");
                    } else if *password == PasswordRequirement::None {
                        add("a username (Credentials::username; the password is not sent)");
                    } else {
                        add("a username and password (Credentials::username)");
                    }
                }
                TokenKind::X509 { .. } if s.role.endorses() => {
                    add("an endorsing key and certificate (Credentials::endorsing, else the signing one)")
                }
                // Sent only when its sp:IncludeToken asks (the runtime's rule too).
                TokenKind::X509 { .. }
                    if !matches!(t.inclusion, Inclusion::Never | Inclusion::AlwaysToInitiator) =>
                {
                    add("the client's certificate, sent as a supporting token (Credentials::signing)")
                }
                TokenKind::SecureConversation { bootstrap, .. } => {
                    message_credentials(bootstrap, response, add)
                }
                _ => {}
            }
        }
    }
}
