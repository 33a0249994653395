//! One policy alternative's assertions read as the security they demand ([`MessagePolicy`](super::types::MessagePolicy)), or
//! refused: each assertion of WS-SecurityPolicy 1.1, 1.2 and 1.3 (§ numbers are SP 1.2's) is
//! either understood and enforced, understood and without effect on a client (`sp:Trust10`, the
//! `sp:MustSupportRef…` assertions), or a [`Refusal`] naming it and why. An assertion no reader
//! knows is refused too, unless it is ignorable or optional (then a warning).

use super::xpath::{encrypted_elements, envelope_part, signed_elements, xpaths, EnvelopePart};
use crate::read::components::{Alternative, Assertion, PolicyElement, QName};

pub use super::types::Interpretation;
use super::types::{
    AlgorithmSuite, AsymmetricSignature, AttachmentCoverage, BindingProperties, Digest, Encryption,
    HeaderPart, HttpAuthentication, Inclusion, KeyReferences, KeyTransport, Layout,
    PasswordRequirement, ProtectedParts, Protection, ProtectionOrder, Refusal, SecurityBinding,
    SpVersion, SupportingRole, SupportingTokens, Token, TokenKind, WssOptions, X509TokenType,
};

/// SecurityPolicy 1.1 (the 2005/07 submission).
pub const SP11: &str = "http://schemas.xmlsoap.org/ws/2005/07/securitypolicy";
/// SecurityPolicy 1.2.
pub const SP12: &str = "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702";
/// SecurityPolicy 1.3's additions.
pub const SP13: &str = "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802";
/// WCF's own policy assertions beside SecurityPolicy 1.1 (`MustNotSendCancel` of a
/// SecureConversationToken).
const WCF_SP: &str = "http://schemas.microsoft.com/ws/2005/07/securitypolicy";
/// Apache CXF's algorithm suites (`Basic128GCM`…).
const CXF_SUITES: &str = "http://cxf.apache.org/custom/security-policy";

/// WS-Addressing assertions: honoured by the addressing reader, not security.
const ADDRESSING: [(&str, &str); 4] = [
    (
        "http://www.w3.org/2007/05/addressing/metadata",
        "Addressing",
    ),
    (
        "http://www.w3.org/2006/05/addressing/wsdl",
        "UsingAddressing",
    ),
    (
        "http://schemas.xmlsoap.org/ws/2004/08/addressing/policy",
        "UsingAddressing",
    ),
    (
        "http://www.w3.org/2007/02/addressing/metadata",
        "Addressing",
    ),
];

/// The SecurityPolicy version of `name`'s namespace, if it is one.
pub fn sp_version(name: &QName) -> Option<SpVersion> {
    match name.ns.as_str() {
        SP11 => Some(SpVersion::Sp11),
        SP12 => Some(SpVersion::Sp12),
        SP13 => Some(SpVersion::Sp13),
        _ => None,
    }
}

/// Whether `name` is the SecurityPolicy assertion `local` (any version).
pub(super) fn is_sp(name: &QName, local: &str) -> bool {
    sp_version(name).is_some() && name.local == local
}

/// Reads the assertions of `alternative`.
pub fn interpret(alternative: &Alternative) -> Interpretation {
    let mut cx = Interpretation::default();
    let mut layout = None;
    for a in &alternative.assertions {
        // An sp:Layout beside the binding instead of in it (some of CXF's test policies): it
        // is the layout of the alternative's binding.
        if is_sp(&a.name, "Layout") {
            layout = Some(self::layout(&mut cx, a));
            continue;
        }
        top_level(&mut cx, a);
    }
    if let (Some(l), Some(b)) = (layout, cx.policy.binding.as_mut()) {
        match b {
            SecurityBinding::Transport { properties, .. }
            | SecurityBinding::Asymmetric { properties, .. }
            | SecurityBinding::Symmetric { properties, .. } => properties.layout = l,
        }
    }
    cx
}

pub(super) fn refuse(cx: &mut Interpretation, a: &Assertion, reason: impl Into<String>) {
    let r = Refusal {
        assertion: a.name.clone(),
        reason: reason.into(),
        loc: a.loc.clone(),
    };
    if a.ignorable || a.optional {
        cx.ignored.push(r);
    } else {
        cx.refused.push(r);
    }
}

/// An assertion directly in the alternative.
fn top_level(cx: &mut Interpretation, a: &Assertion) {
    if ADDRESSING
        .iter()
        .any(|(ns, l)| a.name.ns == *ns && a.name.local == *l)
    {
        return;
    }
    if sp_version(&a.name).is_none() {
        return refuse(cx, a, unknown_reason(&a.name));
    }
    let local = a.name.local.as_str();
    if let Some(role) = SupportingRole::from_local_name(local) {
        if let Some(s) = supporting(cx, a, role) {
            cx.policy.supporting.push(s);
        }
        return;
    }
    match local {
        "TransportBinding" | "AsymmetricBinding" | "SymmetricBinding" => {
            if cx.policy.binding.is_some() {
                return refuse(cx, a, "a second security binding in one alternative (§7)");
            }
            cx.policy.binding = binding(cx, a);
        }
        "SignedParts" => parts(cx, a, Protect::Signed),
        "EncryptedParts" => parts(cx, a, Protect::Encrypted),
        // An absolute path to the Body or a header block names what sp:SignedParts,
        // sp:EncryptedParts and sp:RequiredParts name (§4.1.1, §4.2.1, §4.3.2).
        "SignedElements" => {
            let x = xpaths(cx, a);
            signed_elements(&mut cx.policy.signed, x);
        }
        "EncryptedElements" => {
            let x = xpaths(cx, a);
            encrypted_elements(&mut cx.policy.encrypted, x);
        }
        "ContentEncryptedElements" => {
            for x in xpaths(cx, a) {
                match envelope_part(&x) {
                    Some(EnvelopePart::Body) => cx.policy.encrypted.body = true,
                    _ => cx.policy.content_encrypted.push(x),
                }
            }
        }
        "RequiredElements" => {
            for x in xpaths(cx, a) {
                match envelope_part(&x) {
                    Some(EnvelopePart::Header(h)) => cx.policy.required_headers.push(h),
                    _ => cx.policy.required_elements.push(x),
                }
            }
        }
        "RequiredParts" => {
            for p in &a.parameters {
                if is_sp(&p.name, "Header") {
                    if let Some(h) = header(cx, a, p) {
                        cx.policy.required_headers.push(h);
                    }
                }
            }
        }
        "Wss10" | "Wss11" => cx.policy.wss = Some(wss(cx, a)),
        // WS-Trust options (§10): they describe token requests, which no supported token makes.
        "Trust10" | "Trust13" => {}
        _ => refuse(cx, a, unknown_reason(&a.name)),
    }
}

fn unknown_reason(name: &QName) -> String {
    if name.ns == crate::read::policy::link::REFERENCE {
        return "no policy of the WSDL or of the documents it imports has that name: what the \
                service demands there is unknown"
            .to_owned();
    }
    match (sp_version(name).is_some(), name.local.as_str()) {
        (
            true,
            "IssuedToken"
            | "SpnegoContextToken"
            | "KerberosToken"
            | "SamlToken"
            | "RelToken"
            | "KeyValueToken"
            | "SecurityContextToken",
        ) => format!(
            "{} is not supported by soapgen (tokens from a security token service, Kerberos, SAML \
             and bare keys are not yet); leave this binding out or configure its security by hand",
            name.local
        ),
        (true, _) => "not expected here (WS-SecurityPolicy 1.2)".to_owned(),
        (false, _)
            if name.ns == "http://docs.oasis-open.org/ws-rx/wsrmp/200702"
                || name.ns == "http://schemas.xmlsoap.org/ws/2005/02/rm/policy" =>
        {
            "WS-ReliableMessaging is not supported by soapgen".to_owned()
        }
        (false, _) => "an assertion soapgen does not know: it cannot tell what the service \
                       demands"
            .to_owned(),
    }
}

/// A security binding assertion (§7.3–§7.5).
fn binding(cx: &mut Interpretation, a: &Assertion) -> Option<SecurityBinding> {
    let mut suite = None;
    let mut layout = Layout::Lax;
    let mut include_timestamp = false;
    let mut protection = Protection {
        order: ProtectionOrder::SignBeforeEncrypting,
        encrypt_signature: false,
        protect_tokens: false,
        only_sign_entire_headers_and_body: false,
    };
    let mut tokens: Vec<(&str, Option<Token>)> = Vec::new();
    for n in a.nested_assertions() {
        if sp_version(&n.name).is_none() {
            refuse(cx, n, unknown_reason(&n.name));
            continue;
        }
        match n.name.local.as_str() {
            "AlgorithmSuite" => suite = algorithm_suite(cx, n),
            "Layout" => layout = self::layout(cx, n),
            "IncludeTimestamp" => include_timestamp = true,
            "EncryptBeforeSigning" => protection.order = ProtectionOrder::EncryptBeforeSigning,
            "SignBeforeEncrypting" => protection.order = ProtectionOrder::SignBeforeEncrypting,
            "EncryptSignature" => protection.encrypt_signature = true,
            "ProtectTokens" => protection.protect_tokens = true,
            "OnlySignEntireHeadersAndBody" => protection.only_sign_entire_headers_and_body = true,
            role @ ("TransportToken"
            | "InitiatorToken"
            | "InitiatorSignatureToken"
            | "InitiatorEncryptionToken"
            | "RecipientToken"
            | "RecipientSignatureToken"
            | "RecipientEncryptionToken"
            | "ProtectionToken"
            | "SignatureToken"
            | "EncryptionToken") => {
                let t = wrapped_token(cx, n);
                tokens.push((role, t));
            }
            _ => refuse(cx, n, unknown_reason(&n.name)),
        }
    }
    let Some(suite) = suite else {
        refuse(cx, a, "no sp:AlgorithmSuite (§7.1 requires one)");
        return None;
    };
    let properties = BindingProperties {
        suite,
        layout,
        include_timestamp,
    };
    let take = |names: &[&str]| -> Option<Token> {
        names.iter().find_map(|name| {
            tokens
                .iter()
                .find(|(r, _)| r == name)
                .and_then(|(_, t)| t.clone())
        })
    };
    match a.name.local.as_str() {
        "TransportBinding" => {
            let token = take(&["TransportToken"]);
            match token {
                Some(
                    t @ Token {
                        kind: TokenKind::Https { .. },
                        ..
                    },
                ) => Some(SecurityBinding::Transport {
                    token: t,
                    properties,
                }),
                Some(_) => {
                    refuse(cx, a, "a transport token other than sp:HttpsToken");
                    None
                }
                None => {
                    refuse(cx, a, "no sp:TransportToken (§7.3)");
                    None
                }
            }
        }
        "AsymmetricBinding" => {
            let is = take(&["InitiatorSignatureToken", "InitiatorToken"]);
            let ie = take(&["InitiatorEncryptionToken", "InitiatorToken"]);
            let rs = take(&["RecipientSignatureToken", "RecipientToken"]);
            let re = take(&["RecipientEncryptionToken", "RecipientToken"]);
            if (is.is_some() || ie.is_some()) && (rs.is_some() || re.is_some()) {
                Some(SecurityBinding::Asymmetric {
                    initiator_signature: is,
                    initiator_encryption: ie,
                    recipient_signature: rs,
                    recipient_encryption: re,
                    properties,
                    protection,
                })
            } else {
                refuse(cx, a, "no initiator or no recipient token (§7.5)");
                None
            }
        }
        _ => {
            let sig = take(&["SignatureToken", "ProtectionToken"]);
            let enc = take(&["EncryptionToken", "ProtectionToken"]);
            match (sig, enc) {
                (Some(signature), Some(encryption)) => Some(SecurityBinding::Symmetric {
                    signature,
                    encryption,
                    properties,
                    protection,
                }),
                _ => {
                    refuse(cx, a, "no protection token (§7.4)");
                    None
                }
            }
        }
    }
}

/// A token wrapper (`sp:InitiatorToken` and the like): the one token assertion in it.
fn wrapped_token(cx: &mut Interpretation, a: &Assertion) -> Option<Token> {
    let inner = a.nested_assertions();
    match inner {
        [t] => token(cx, t),
        _ => {
            refuse(cx, a, "expected exactly one token assertion in it");
            None
        }
    }
}

/// A token assertion (§5.4).
fn token(cx: &mut Interpretation, a: &Assertion) -> Option<Token> {
    if sp_version(&a.name).is_none() {
        refuse(cx, a, unknown_reason(&a.name));
        return None;
    }
    let inclusion = match a.attribute("IncludeToken").map(str::trim) {
        None => Inclusion::Always,
        Some(uri) => match uri.rsplit('/').next().unwrap_or_default() {
            "Never" => Inclusion::Never,
            "Once" => Inclusion::Once,
            "AlwaysToRecipient" => Inclusion::AlwaysToRecipient,
            "AlwaysToInitiator" => Inclusion::AlwaysToInitiator,
            "Always" => Inclusion::Always,
            _ => {
                refuse(
                    cx,
                    a,
                    format!("sp:IncludeToken {uri:?} is not one of §5.1.1's values"),
                );
                return None;
            }
        },
    };
    let mut derived_keys = false;
    let kind = match a.name.local.as_str() {
        "X509Token" => {
            let mut token_type = X509TokenType::Unspecified;
            let mut references = KeyReferences::default();
            for n in a.nested_assertions() {
                match n.name.local.as_str() {
                    _ if sp_version(&n.name).is_none() => refuse(cx, n, unknown_reason(&n.name)),
                    "RequireKeyIdentifierReference" => references.key_identifier = true,
                    "RequireIssuerSerialReference" => references.issuer_serial = true,
                    // WSS 1.1 §7.4: the token inside its reference. soapgen neither writes nor
                    // reads such references yet (CXF asserts the requirement without either).
                    "RequireEmbeddedTokenReference" => {
                        references.embedded = true;
                        refuse(
                            cx,
                            n,
                            "embedded token references (WSS 1.1 §7.4) are not in soapgen's \
                             runtime yet",
                        );
                    }
                    "RequireThumbprintReference" => references.thumbprint = true,
                    "RequireDerivedKeys"
                    | "RequireExplicitDerivedKeys"
                    | "RequireImpliedDerivedKeys" => derived_keys = true,
                    "WssX509V3Token10" | "WssX509V3Token11" => token_type = X509TokenType::V3,
                    "WssX509V1Token11" => token_type = X509TokenType::V1,
                    "WssX509Pkcs7Token10" | "WssX509Pkcs7Token11" => {
                        token_type = X509TokenType::Pkcs7
                    }
                    "WssX509PkiPathV1Token10" | "WssX509PkiPathV1Token11" => {
                        token_type = X509TokenType::PkiPath
                    }
                    _ => refuse(cx, n, unknown_reason(&n.name)),
                }
            }
            if token_type == X509TokenType::Pkcs7 {
                refuse(cx, a, "PKCS#7 X.509 tokens are not supported by soapgen");
                return None;
            }
            TokenKind::X509 {
                token_type,
                references,
            }
        }
        "UsernameToken" => {
            let mut password = PasswordRequirement::Text;
            let (mut created, mut nonce, mut profile11) = (false, false, false);
            for n in a.nested_assertions() {
                match (sp_version(&n.name), n.name.local.as_str()) {
                    (None, _) => refuse(cx, n, unknown_reason(&n.name)),
                    (_, "NoPassword") => password = PasswordRequirement::None,
                    (_, "HashPassword") => password = PasswordRequirement::Hash,
                    (_, "WssUsernameToken10") => {}
                    (_, "WssUsernameToken11") => profile11 = true,
                    (Some(SpVersion::Sp13), "Created") => created = true,
                    (Some(SpVersion::Sp13), "Nonce") => nonce = true,
                    (_, "RequireDerivedKeys" | "RequireExplicitDerivedKeys" | "RequireImpliedDerivedKeys") => {
                        refuse(cx, n, "keys derived from a password (UsernameToken Profile 1.1 §4) are not supported by soapgen")
                    }
                    _ => refuse(cx, n, unknown_reason(&n.name)),
                }
            }
            TokenKind::Username {
                password,
                created,
                nonce,
                profile11,
            }
        }
        "HttpsToken" => {
            let mut client_certificate = matches!(
                a.attribute("RequireClientCertificate").map(str::trim),
                Some("true" | "1")
            );
            let mut http_authentication = None;
            for n in a.nested_assertions() {
                match n.name.local.as_str() {
                    _ if sp_version(&n.name).is_none() => refuse(cx, n, unknown_reason(&n.name)),
                    "RequireClientCertificate" => client_certificate = true,
                    "HttpBasicAuthentication" => {
                        http_authentication = Some(HttpAuthentication::Basic)
                    }
                    "HttpDigestAuthentication" => {
                        http_authentication = Some(HttpAuthentication::Digest)
                    }
                    _ => refuse(cx, n, unknown_reason(&n.name)),
                }
            }
            TokenKind::Https {
                client_certificate,
                http_authentication,
            }
        }
        "SecureConversationToken" => secure_conversation(cx, a, &mut derived_keys)?,
        _ => {
            refuse(cx, a, unknown_reason(&a.name));
            return None;
        }
    };
    Some(Token {
        kind,
        inclusion,
        derived_keys,
        sp11: a.name.ns == SP11,
        loc: a.loc.clone(),
    })
}

/// `sp:SecureConversationToken` (§5.4.7): its bootstrap policy interpreted (what it refuses
/// refused here, each at its own assertion), the context's options.
fn secure_conversation(
    cx: &mut Interpretation,
    a: &Assertion,
    derived_keys: &mut bool,
) -> Option<TokenKind> {
    if let Some(issuer) = a
        .parameters
        .iter()
        .find(|p| is_sp(&p.name, "Issuer") || is_sp(&p.name, "IssuerName"))
    {
        refuse(
            cx,
            a,
            format!(
                "a security context from another issuer (sp:{}): soapgen asks the service \
                 itself (WS-SecureConversation 1.3 §4)",
                issuer.name.local
            ),
        );
        return None;
    }
    let mut bootstrap = None;
    let mut no_cancel = false;
    for n in a.nested_assertions() {
        match (sp_version(&n.name), n.name.local.as_str()) {
            // WCF writes it in its own namespace (and the SP 1.2 one in SP 1.2 policies).
            (None, "MustNotSendCancel") if n.name.ns == WCF_SP => no_cancel = true,
            (None, _) => refuse(cx, n, unknown_reason(&n.name)),
            (_, "BootstrapPolicy") => {
                let Some(alternative) = &n.nested else {
                    refuse(cx, n, "a bootstrap policy with no alternative (§5.4.7)");
                    continue;
                };
                let inner = interpret(alternative);
                let before = cx.refused.len();
                cx.refused.extend(inner.refused);
                cx.ignored.extend(inner.ignored);
                if cx.refused.len() == before {
                    cx.refused
                        .extend(super::runtime::unenforceable(&inner.policy));
                }
                bootstrap = Some(inner.policy);
            }
            (
                _,
                "RequireDerivedKeys" | "RequireExplicitDerivedKeys" | "RequireImpliedDerivedKeys",
            ) => {
                *derived_keys = true;
            }
            (_, "MustNotSendCancel") => no_cancel = true,
            // soapgen never amends or renews a context (it requests a new one).
            (_, "MustNotSendAmend" | "MustNotSendRenew") => {}
            (_, "SC13SecurityContextToken" | "SC10SecurityContextToken") => {}
            (_, "RequireExternalUriReference") => refuse(
                cx,
                n,
                "a context named by its Identifier alone, not sent: soapgen sends the token \
                 (WS-SecureConversation 1.3 §8)",
            ),
            _ => refuse(cx, n, unknown_reason(&n.name)),
        }
    }
    let Some(bootstrap) = bootstrap else {
        refuse(
            cx,
            a,
            "no sp:BootstrapPolicy: how the context is to be requested is not said (§5.4.7)",
        );
        return None;
    };
    Some(TokenKind::SecureConversation {
        bootstrap: Box::new(bootstrap),
        no_cancel,
    })
}

/// `sp:AlgorithmSuite` (§7.1): the suite and its modifiers.
fn algorithm_suite(cx: &mut Interpretation, a: &Assertion) -> Option<AlgorithmSuite> {
    let mut suite: Option<AlgorithmSuite> = None;
    let (mut inclusive_c14n, mut str_transform) = (false, false);
    for n in a.nested_assertions() {
        let known = sp_version(&n.name).is_some() || n.name.ns == CXF_SUITES;
        if !known {
            refuse(cx, n, unknown_reason(&n.name));
            continue;
        }
        match n.name.local.as_str() {
            "InclusiveC14N" => inclusive_c14n = true,
            "STRTransform10" => str_transform = true,
            "SOAPNormalization10"
            | "XPath10"
            | "XPathFilter20"
            | "AbsXPath"
            | "InclusiveC14N11" => refuse(
                cx,
                n,
                "this algorithm suite modifier is not supported by soapgen",
            ),
            name => match suite_algorithms(name) {
                Some((digest, encryption, key_transport, asymmetric_signature)) => {
                    suite = Some(AlgorithmSuite {
                        name: name.to_owned(),
                        digest,
                        encryption,
                        key_transport,
                        asymmetric_signature,
                        inclusive_c14n: false,
                        str_transform: false,
                    })
                }
                None => refuse(cx, n, "an algorithm suite soapgen does not know (§6.1)"),
            },
        }
    }
    let mut suite = suite?;
    suite.inclusive_c14n = inclusive_c14n;
    suite.str_transform = str_transform;
    Some(suite)
}

/// The algorithms of a named suite (§6.1; CXF's GCM and SHA-512 suites).
fn suite_algorithms(name: &str) -> Option<(Digest, Encryption, KeyTransport, AsymmetricSignature)> {
    use Encryption::*;
    let (base, rest) = ["Basic256", "Basic192", "Basic128", "TripleDes"]
        .iter()
        .find_map(|b| name.strip_prefix(b).map(|r| (*b, r)))?;
    let cbc = match base {
        "Basic256" => Aes256Cbc,
        "Basic192" => Aes192Cbc,
        "Basic128" => Aes128Cbc,
        _ => TripleDesCbc,
    };
    let gcm = match base {
        "Basic256" => Some(Aes256Gcm),
        "Basic192" => Some(Aes192Gcm),
        "Basic128" => Some(Aes128Gcm),
        _ => None,
    };
    let rsa = AsymmetricSignature::RsaSha1;
    Some(match rest {
        "" => (Digest::Sha1, cbc, KeyTransport::RsaOaep, rsa),
        "Rsa15" => (Digest::Sha1, cbc, KeyTransport::Rsa15, rsa),
        "Sha256" => (Digest::Sha256, cbc, KeyTransport::RsaOaep, rsa),
        "Sha256Rsa15" => (Digest::Sha256, cbc, KeyTransport::Rsa15, rsa),
        "GCM" => (Digest::Sha1, gcm?, KeyTransport::RsaOaep, rsa),
        "GCMMGFSHA256" => (Digest::Sha1, gcm?, KeyTransport::RsaOaepMgf1Sha256, rsa),
        "GCMMGFSHA256Digest" => (
            Digest::Sha256,
            gcm?,
            KeyTransport::RsaOaepSha256Mgf1Sha256,
            rsa,
        ),
        "RsaSha512" => (
            Digest::Sha512,
            cbc,
            KeyTransport::RsaOaep,
            AsymmetricSignature::RsaSha512,
        ),
        _ => return None,
    })
}

/// `sp:Layout` (§7.2).
fn layout(cx: &mut Interpretation, a: &Assertion) -> Layout {
    match a.nested_assertions() {
        [n] if sp_version(&n.name).is_some() => match n.name.local.as_str() {
            "Strict" => Layout::Strict,
            "Lax" => Layout::Lax,
            "LaxTsFirst" => Layout::LaxTsFirst,
            "LaxTsLast" => Layout::LaxTsLast,
            _ => {
                refuse(cx, n, "not a layout of §7.2");
                Layout::Lax
            }
        },
        [] => Layout::Lax,
        _ => {
            refuse(cx, a, "expected one layout (§7.2)");
            Layout::Lax
        }
    }
}

/// A supporting tokens assertion (§8).
fn supporting(
    cx: &mut Interpretation,
    a: &Assertion,
    role: SupportingRole,
) -> Option<SupportingTokens> {
    let mut s = SupportingTokens {
        role,
        tokens: Vec::new(),
        signed: ProtectedParts::default(),
        encrypted: ProtectedParts::default(),
    };
    let refused_before = cx.refused.len();
    for n in a.nested_assertions() {
        match n.name.local.as_str() {
            _ if sp_version(&n.name).is_none() => refuse(cx, n, unknown_reason(&n.name)),
            "AlgorithmSuite" => {
                algorithm_suite(cx, n);
            }
            "SignedParts" => protected(cx, n, &mut s.signed),
            "EncryptedParts" => protected(cx, n, &mut s.encrypted),
            "SignedElements" => signed_elements(&mut s.signed, xpaths(cx, n)),
            "EncryptedElements" => encrypted_elements(&mut s.encrypted, xpaths(cx, n)),
            _ => {
                if let Some(t) = token(cx, n) {
                    s.tokens.push(t);
                }
            }
        }
    }
    if s.tokens.is_empty() {
        if cx.refused.len() == refused_before {
            refuse(cx, a, "no token in it (§8)");
        }
        return None;
    }
    Some(s)
}

enum Protect {
    Signed,
    Encrypted,
}

/// `sp:SignedParts` / `sp:EncryptedParts` (§4.1.1, §4.2.1).
fn parts(cx: &mut Interpretation, a: &Assertion, which: Protect) {
    let mut p = std::mem::take(match which {
        Protect::Signed => &mut cx.policy.signed,
        Protect::Encrypted => &mut cx.policy.encrypted,
    });
    protected(cx, a, &mut p);
    match which {
        Protect::Signed => cx.policy.signed = p,
        Protect::Encrypted => cx.policy.encrypted = p,
    }
}

fn protected(cx: &mut Interpretation, a: &Assertion, out: &mut ProtectedParts) {
    if a.parameters.is_empty() && a.nested.is_none() {
        // §4.1.1: an empty SignedParts means the Body and every header.
        out.body = true;
        return;
    }
    for p in &a.parameters {
        match (sp_version(&p.name), p.name.local.as_str()) {
            (Some(_), "Body") => out.body = true,
            (Some(_), "Header") => {
                if let Some(h) = header(cx, a, p) {
                    out.headers.push(h);
                }
            }
            (Some(_), "Attachments") => out.attachments = Some(attachment_coverage(p)),
            _ => cx.refused.push(Refusal {
                assertion: p.name.clone(),
                reason: "not a part of §4.1.1".to_owned(),
                loc: p.loc.clone(),
            }),
        }
    }
}

/// What `sp:Attachments` protects (SP 1.3 §4.1.1): the content alone with
/// `sp13:ContentSignatureTransform`, else the headers and the content, as CXF reads it (the
/// children are read in either SP namespace, as CXF does).
fn attachment_coverage(p: &PolicyElement) -> AttachmentCoverage {
    let content = p
        .children
        .iter()
        .any(|c| c.name.local == "ContentSignatureTransform" && sp_version(&c.name).is_some());
    if content {
        AttachmentCoverage::Content
    } else {
        AttachmentCoverage::Complete
    }
}

/// `sp:Header Name="…" Namespace="…"` (§4.1.1).
fn header(cx: &mut Interpretation, a: &Assertion, p: &PolicyElement) -> Option<HeaderPart> {
    match p.attribute("Namespace") {
        Some(ns) => Some(HeaderPart {
            namespace: ns.trim().to_owned(),
            name: p.attribute("Name").map(|n| n.trim().to_owned()),
        }),
        None => {
            refuse(cx, a, "an sp:Header without Namespace (§4.1.1)");
            None
        }
    }
}

/// `sp:Wss10` / `sp:Wss11` (§9.1, §9.2).
fn wss(cx: &mut Interpretation, a: &Assertion) -> WssOptions {
    let mut o = WssOptions {
        wss11: a.name.local == "Wss11",
        require_signature_confirmation: false,
    };
    for n in a.nested_assertions() {
        match n.name.local.as_str() {
            _ if sp_version(&n.name).is_none() => refuse(cx, n, unknown_reason(&n.name)),
            "RequireSignatureConfirmation" => o.require_signature_confirmation = true,
            // What the other side can process: no requirement on the client's messages.
            "MustSupportRefKeyIdentifier"
            | "MustSupportRefIssuerSerial"
            | "MustSupportRefExternalURI"
            | "MustSupportRefEmbeddedToken"
            | "MustSupportRefThumbprint"
            | "MustSupportRefEncryptedKey" => {}
            _ => refuse(cx, n, unknown_reason(&n.name)),
        }
    }
    o
}
