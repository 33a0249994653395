//! Security from the WSDL's policy, live: clients generated from Apache CXF's own
//! WS-SecurityPolicy test WSDLs (tests/build.rs, the policy corpus), configured by
//! `ClientBuilder::security_policy` with the port's generated policy and credentials only, against
//! the CXF peer enforcing those policies ([`super::cxf::cxf`]): each request as CXF demands, each
//! response checked against what the policy requires of it. A missing credential, a plain HTTP
//! endpoint for a transport binding, and a response that falls short of the policy are typed
//! errors naming what is missing.

use std::sync::Arc;

use soapgen_runtime::policy::{
    Binding, Credentials, Inclusion, MessagePolicy, OperationPolicy, Parts, PortPolicy, Suite,
    UnknownPort, X509Token, XPath, XPathStep,
};
use soapgen_runtime::transport::{
    HttpRequest, ReqwestTransport, Transport, TransportFuture, TrustAnchors,
};
use soapgen_runtime::wss::{DigestAlgorithm, Layout, TrustStore, WssError};
use soapgen_runtime::{Client, Error};
use soapgen_tests::pki::test_pki;
use soapgen_tests::recording::Recording;
use soapgen_tests::wss::{cert, credential};

use super::cxf::{cxf, USER};

mod x509 {
    soapgen_runtime::include_client!("cxf_x509");
}
mod ut {
    soapgen_runtime::include_client!("cxf_ut");
}
mod swa {
    soapgen_runtime::include_client!("cxf_swa");
}

use ut::DoubleItServiceClient as UtClient;
use x509::DoubleItPortTypeClient as X509Client;

/// What the asymmetric ports need: the client's key, the service's certificate, the CA.
fn x509_credentials() -> Credentials {
    Credentials::new()
        .signing(credential("client"))
        .service_certificate(cert("server.pem"))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
}

fn policy_of(policy: Result<&'static PortPolicy, UnknownPort>, port: &str) -> &'static PortPolicy {
    policy.unwrap_or_else(|e| panic!("{port}: {e}"))
}

#[test]
fn a_port_without_a_policy_is_an_error_listing_the_secured_ones() {
    let e = X509Client::port_policy("DoubleItNoSuchPort").unwrap_err();
    assert_eq!(e.port, "DoubleItNoSuchPort");
    assert!(
        e.secured.contains(&"DoubleItAsymmetricIssuerSerialPort"),
        "{e}"
    );
    assert!(e.to_string().contains("DoubleItKeyIdentifierPort"), "{e}");
}

/// The client of `port` of DoubleItX509.wsdl at the CXF peer, over plain HTTP through a
/// recording transport.
fn x509_client(
    port: &str,
    credentials: Credentials,
    wire: &Arc<Recording>,
) -> Result<X509Client, Error> {
    let url = cxf().url(&format!("/DoubleItX509/{port}"));
    let client = Client::builder(url)
        .transport(wire.clone())
        .security_policy(policy_of(X509Client::port_policy(port), port), credentials)
        .build()?;
    Ok(X509Client::from_client(client))
}

/// `DoubleIt(n)` at an asymmetric port, which must give `2n`; the request as sent.
async fn x509_doubled(port: &str, n: i32) -> String {
    let wire = Arc::new(Recording::new());
    let client = x509_client(port, x509_credentials(), &wire).expect("client");
    match client.double_it(n).await {
        Ok(v) => assert_eq!(v, 2 * n, "{port}"),
        Err(e) => panic!(
            "{port}: {e}\n{:?}\n--- CXF ---\n{}",
            wire.exchanges().last(),
            cxf().stderr_output()
        ),
    }
    wire.requests().pop().expect("a request")
}

#[tokio::test]
async fn asymmetric_ports_secured_from_their_policy_alone() {
    let issuer_serial = x509_doubled("DoubleItAsymmetricIssuerSerialPort", 21).await;
    // The policy's reference styles: the client's certificate sent (AlwaysToRecipient), the
    // service's named by issuer and serial (Never, RequireIssuerSerialReference).
    assert!(
        issuer_serial.contains("X509IssuerSerial"),
        "{issuer_serial}"
    );
    assert!(
        issuer_serial.contains("BinarySecurityToken"),
        "{issuer_serial}"
    );
    let thumbprint = x509_doubled("DoubleItAsymmetricThumbprintPort", 5).await;
    assert!(thumbprint.contains("#ThumbprintSHA1"), "{thumbprint}");
    // Basic128Sha256: SHA-256 digests, RSA-SHA1 signatures.
    let sha256 = x509_doubled("DoubleItAsymmetricSHA256Port", 7).await;
    assert!(sha256.contains("xmlenc#sha256"), "{sha256}");
    assert!(sha256.contains("xmldsig#rsa-sha1"), "{sha256}");
}

/// The client of `port` of DoubleItUt.wsdl at the CXF peer, over HTTPS (the test CA trusted).
fn ut_client(port: &str, credentials: Credentials) -> Result<UtClient, Error> {
    let url = cxf().https_url(&format!("/DoubleItUt/{port}"));
    let client = Client::builder(url)
        .trust_anchors(TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem"))
        .security_policy(policy_of(UtClient::port_policy(port), port), credentials)
        .build()?;
    Ok(UtClient::from_client(client))
}

#[tokio::test]
async fn transport_ports_with_username_tokens_from_their_policy_alone() {
    for (port, n) in [("DoubleItPlaintextPort", 4), ("DoubleItHashedPort", 9)] {
        let client = ut_client(port, Credentials::new().username(USER.0, USER.1)).expect("client");
        let v = client
            .double_it(n)
            .await
            .unwrap_or_else(|e| panic!("{port}: {e}\n--- CXF ---\n{}", cxf().stderr_output()));
        assert_eq!(v, 2 * n, "{port}");
    }
    // CXF refuses a wrong password: the policy was applied with the credentials given.
    let wrong = ut_client(
        "DoubleItPlaintextPort",
        Credentials::new().username(USER.0, "nope"),
    )
    .expect("client");
    let e = wrong.double_it(1).await.unwrap_err();
    assert!(e.to_string().contains("security"), "{e}");
}

#[tokio::test]
async fn a_transport_port_with_an_endorsing_x509_token_from_its_policy_alone() {
    let port = "DoubleItTransportEndorsingPort";
    let client = Client::builder(cxf().https_url(&format!("/DoubleItX509/{port}")))
        .trust_anchors(TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem"))
        .security_policy(
            policy_of(X509Client::port_policy(port), port),
            Credentials::new().signing(credential("client")),
        )
        .build()
        .expect("client");
    let v = X509Client::from_client(client)
        .double_it(8)
        .await
        .unwrap_or_else(|e| panic!("{port}: {e}\n--- CXF ---\n{}", cxf().stderr_output()));
    assert_eq!(v, 16);
}

#[test]
fn a_missing_credential_or_a_plain_http_endpoint_is_a_typed_error_naming_it() {
    let wire = Arc::new(Recording::new());
    let Err(e) = x509_client(
        "DoubleItAsymmetricIssuerSerialPort",
        Credentials::new().service_certificate(cert("server.pem")),
        &wire,
    ) else {
        panic!("built without the client's key")
    };
    match e {
        Error::Security(w) => match *w {
            ref w @ WssError::MissingCredential {
                ref port,
                assertion,
                credential,
                ref also,
            } => {
                assert_eq!(port, "DoubleItAsymmetricIssuerSerialPort");
                assert_eq!(assertion, "sp:InitiatorToken");
                assert!(credential.contains("signing key"), "{credential}");
                // Every other credential the policy needs is named in the same error: the
                // trust anchors that verify the signed responses (and, once, the key that
                // decrypts them).
                let named: Vec<&str> = also.iter().map(|(_, c)| *c).collect();
                assert!(
                    named.iter().any(|c| c.contains("Credentials::trust")),
                    "{named:?}"
                );
                assert!(w.to_string().contains("Credentials::trust"), "{w}");
            }
            other => panic!("{other}"),
        },
        other => panic!("{other}"),
    }
    let policy = policy_of(UtClient::port_policy("DoubleItPlaintextPort"), "");
    let e = Client::builder("http://127.0.0.1:9/DoubleItUt")
        .security_policy(policy, Credentials::new().username(USER.0, USER.1))
        .build()
        .unwrap_err();
    assert!(
        matches!(e, Error::Security(ref w) if matches!(**w, WssError::HttpsRequired { .. })),
        "{e}"
    );
    let e = Client::builder(cxf().https_url("/DoubleItUt/DoubleItPlaintextPort"))
        .security_policy(policy, Credentials::new())
        .build()
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("sp:UsernameToken needs a username and password"),
        "{e}"
    );
}

#[tokio::test]
async fn an_operation_the_port_policy_does_not_name_is_refused_not_sent_in_clear() {
    // A hand-written call through a client of a secured port, named otherwise than the WSDL's
    // operations: its security is unknown, so nothing is sent.
    let wire = Arc::new(Recording::new());
    let client = x509_client(
        "DoubleItAsymmetricIssuerSerialPort",
        x509_credentials(),
        &wire,
    )
    .expect("client");
    let op = soapgen_runtime::Operation::new(
        "DoubleItRequest",
        "",
        soapgen_runtime::SoapVersion::Soap11,
    );
    let mut req = client.client().request(&[]);
    req.body_writer()
        .simple_element(
            soapgen_runtime::xml::Name::new("http://www.example.org/schema/DoubleIt", "DoubleIt"),
            "1",
        )
        .expect("written");
    let e = client
        .client()
        .call(&op, req.finish().expect("request"), |r, _| {
            Ok(r.read_inner_xml()?.to_owned())
        })
        .await
        .unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(e, Error::Encode(_))
            && text.contains("\"DoubleItRequest\" is not in the WS-SecurityPolicy of port")
            && text.contains("its operations: DoubleIt"),
        "{text}"
    );
    assert!(wire.requests().is_empty(), "nothing sent");
}

/// A man in the middle of the connection's application data: each response changed by its
/// function on the way to the client, to make responses that fall short of the policy.
#[derive(Debug)]
struct Tamper(ReqwestTransport, fn(String) -> String);

impl Transport for Tamper {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(async move {
            let mut resp = self.0.send(request).await?;
            let text = String::from_utf8_lossy(&resp.body).into_owned();
            resp.body = (self.1)(text).into_bytes().into();
            Ok(resp)
        })
    }
}

/// `text` without its first element named `name` (a prefixed start tag through its end tag).
fn without(text: String, name: &str) -> String {
    let (open, close) = (format!("<{name}"), format!("</{name}>"));
    match (text.find(&open), text.find(&close)) {
        (Some(a), Some(b)) => {
            let mut t = text.clone();
            t.replace_range(a..b + close.len(), "");
            t
        }
        _ => text,
    }
}

/// `text` with `block` added as the first child of its SOAP Header.
fn with_header(text: String, block: &str) -> String {
    let mut t = text;
    let header = t.find(":Header").expect("a Header");
    let after = t[header..]
        .find('>')
        .map(|g| header + g + 1)
        .expect("a start tag");
    t.insert_str(after, block);
    t
}

/// The assertion a call's error says the response does not meet.
fn not_met(e: Error) -> (&'static str, WssError) {
    match e {
        Error::Security(w) => match *w {
            WssError::PolicyNotMet { assertion, cause } => (assertion, *cause),
            other => panic!("{other}"),
        },
        other => panic!("{other}"),
    }
}

/// `DoubleIt(1)` at the asymmetric `port` with `policy` and `credentials`, each response changed
/// by `tamper`: the error.
async fn x509_refused(
    port: &str,
    policy: &'static PortPolicy,
    credentials: Credentials,
    tamper: fn(String) -> String,
) -> Error {
    let client = Client::builder(cxf().url(&format!("/DoubleItX509/{port}")))
        .transport(Arc::new(Tamper(
            ReqwestTransport::new().expect("transport"),
            tamper,
        )))
        .security_policy(policy, credentials)
        .build()
        .expect("client");
    match X509Client::from_client(client).double_it(1).await {
        Ok(v) => panic!("{port}: accepted ({v})"),
        Err(e) => e.error,
    }
}

#[tokio::test]
async fn asymmetric_responses_short_of_the_policy_are_refused_naming_the_assertion() {
    let port = "DoubleItAsymmetricIssuerSerialPort";
    let policy = policy_of(X509Client::port_policy(port), port);
    // The service's signature taken out: sp:SignedParts is not met.
    let e = x509_refused(port, policy, x509_credentials(), |t| {
        without(t, "ds:Signature")
    })
    .await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:SignedParts", "{cause}");
    // Signed by a certificate the credentials' trust anchors do not issue: sp:RecipientToken.
    let untrusting = Credentials::new()
        .signing(credential("client"))
        .service_certificate(cert("server.pem"))
        .trust(TrustStore::new().anchor(cert("client.pem")));
    let e = x509_refused(port, policy, untrusting, |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RecipientToken", "{cause}");
    // Its signature names the service's certificate by issuer and serial, as the port's policy
    // says; a policy that requires a thumbprint reference refuses it (sp:RecipientToken).
    let thumbprint = stricter(port, |r| {
        if let Some(Binding::Asymmetric(mut b)) = r.binding {
            b.recipient_signature = b
                .recipient_signature
                .map(|t| X509Token::new(t.token_type, t.inclusion).thumbprint());
            r.binding = Some(Binding::Asymmetric(b));
        }
    });
    let e = x509_refused(port, thumbprint, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RecipientToken", "{cause}");
    assert!(
        matches!(
            cause,
            WssError::KeyReference {
                found: "X509IssuerSerial",
                ..
            }
        ),
        "{cause}"
    );
    // The response's algorithms are not the suite's: this port answers with SHA-1 digests, a
    // policy whose responses are Basic128Sha256 refuses them.
    let sha256 = stricter(port, |r| {
        if let Some(Binding::Asymmetric(mut b)) = r.binding {
            b.suite = Suite::new(
                "Basic128Sha256",
                DigestAlgorithm::Sha256,
                b.suite.encryption,
                b.suite.key_transport,
                b.suite.signature,
            );
            r.binding = Some(Binding::Asymmetric(b));
        }
    });
    let e = x509_refused(port, sha256, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:AlgorithmSuite", "{cause}");
    // A header the policy wants encrypted, when the response has it, is in the clear:
    // sp:EncryptedParts. Without it, the response meets the policy (WS-SecurityPolicy 1.2
    // §5.2.1: the header is protected when present).
    let header = stricter(port, |r| {
        r.encrypted = Parts::new(true, &[("urn:x", "Session")])
    });
    let e = x509_refused(port, header, x509_credentials(), |t| {
        with_header(t, r#"<x:Session xmlns:x="urn:x">1</x:Session>"#)
    })
    .await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:EncryptedParts", "{cause}");
    let client = Client::builder(cxf().url(&format!("/DoubleItX509/{port}")))
        .security_policy(header, x509_credentials())
        .build()
        .expect("client");
    assert_eq!(
        X509Client::from_client(client)
            .double_it(2)
            .await
            .expect("met"),
        4
    );
    // The same of a header it wants signed: sp:SignedParts.
    let signed = stricter(port, |r| {
        r.signed = Parts::new(true, &[("urn:x", "Session")])
    });
    let e = x509_refused(port, signed, x509_credentials(), |t| {
        with_header(t, r#"<x:Session xmlns:x="urn:x">1</x:Session>"#)
    })
    .await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:SignedParts", "{cause}");
    // CXF confirms no signature unless asked: sp:RequireSignatureConfirmation.
    let confirmed = stricter(port, |r| *r = r.signature_confirmation());
    let e = x509_refused(port, confirmed, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RequireSignatureConfirmation", "{cause}");
    // Its responses put the Timestamp first: a LaxTsLast policy refuses them (sp:Layout).
    let last = stricter(port, |r| {
        if let Some(Binding::Asymmetric(b)) = r.binding {
            r.binding = Some(Binding::Asymmetric(b.layout(Layout::LaxTsLast)));
        }
    });
    let e = x509_refused(port, last, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:Layout", "{cause}");
}

#[tokio::test]
async fn responses_short_of_encrypt_signature_or_protect_tokens_are_refused_naming_them() {
    // CXF signs this port's responses in the clear: a policy that wants the response's
    // signature encrypted refuses them (sp:EncryptSignature).
    let port = "DoubleItAsymmetricIssuerSerialPort";
    let encrypted = stricter(port, |r| {
        if let Some(Binding::Asymmetric(b)) = r.binding {
            r.binding = Some(Binding::Asymmetric(b.encrypt_signature()));
        }
    });
    let e = x509_refused(port, encrypted, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:EncryptSignature", "{cause}");
    // As its policy says, it is accepted with the signature encrypted.
    x509_doubled("DoubleItAsymmetricEncryptSignaturePort", 4).await;
    // A port whose policy protects the tokens is accepted; its response with the signature's
    // key swapped for a BinarySecurityToken the signature does not cover (KeyInfo is outside
    // SignedInfo: the signature still verifies) is refused naming sp:ProtectTokens.
    let port = "DoubleItAsymmetricProtectTokensPort";
    x509_doubled(port, 5).await;
    // (The port's policy never sends the service's token: a token in the response is refused
    // as sp:RecipientToken first. Held to sp:ProtectTokens alone, it is sent to the client.)
    let sent = stricter(port, |r| {
        if let Some(Binding::Asymmetric(mut b)) = r.binding {
            b.recipient_signature = b
                .recipient_signature
                .map(|t| X509Token::new(t.token_type, Inclusion::AlwaysToInitiator));
            r.binding = Some(Binding::Asymmetric(b));
        }
    });
    let e = x509_refused(port, sent, x509_credentials(), unprotected_token).await;
    let (assertion, _) = not_met(e);
    assert_eq!(assertion, "sp:ProtectTokens");
    let policy = policy_of(X509Client::port_policy(port), port);
    let e = x509_refused(port, policy, x509_credentials(), unprotected_token).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RecipientToken", "{cause}");
}

/// `text` (a signed response) with the service's certificate added as a BinarySecurityToken
/// that the Signature's KeyInfo references instead of what it named.
fn unprotected_token(text: String) -> String {
    const WSSE: &str =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    const WSU: &str =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    const X509: &str =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";
    let pem = String::from_utf8(test_pki().read("server.pem")).expect("PEM");
    let der: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let token = format!(
        "<wsse:BinarySecurityToken xmlns:wsse=\"{WSSE}\" xmlns:wsu=\"{WSU}\" wsu:Id=\"X509-swapped\" \
         ValueType=\"{X509}\" EncodingType=\"http://docs.oasis-open.org/wss/2004/01/\
         oasis-200401-wss-soap-message-security-1.0#Base64Binary\">{der}</wsse:BinarySecurityToken>"
    );
    let reference = format!(
        "<wsse:SecurityTokenReference xmlns:wsse=\"{WSSE}\"><wsse:Reference URI=\"#X509-swapped\" \
         ValueType=\"{X509}\"/></wsse:SecurityTokenReference>"
    );
    let mut t = text;
    // The Signature's KeyInfo (an EncryptedKey before it has one of its own).
    let value = t.find("<ds:SignatureValue").expect("a signature");
    let (Some(ki), Some(ki_end)) = (
        t[value..].find("<ds:KeyInfo").map(|i| value + i),
        t[value..].find("</ds:KeyInfo>").map(|i| value + i),
    ) else {
        panic!("no ds:KeyInfo in the Signature of {t}")
    };
    let inner = t[ki..].find('>').map(|g| ki + g + 1).expect("a start tag");
    t.replace_range(inner..ki_end, &reference);
    let security = t.find("<wsse:Security").expect("a Security header");
    let after = t[security..]
        .find('>')
        .map(|g| security + g + 1)
        .expect("a start tag");
    t.insert_str(after, &token);
    t
}

#[tokio::test]
async fn symmetric_responses_short_of_the_policy_are_refused_naming_the_assertion() {
    for port in [
        "DoubleItKeyIdentifierPort",
        "DoubleItSymmetricProtectTokensPort",
    ] {
        let policy = policy_of(X509Client::port_policy(port), port);
        // As its policy says: accepted.
        x509_doubled(port, 6).await;
        // Its signature under the request's key taken out: sp:SignedParts.
        let e = x509_refused(port, policy, x509_credentials(), |t| {
            without(t, "ds:Signature")
        })
        .await;
        let (assertion, cause) = not_met(e);
        assert_eq!(assertion, "sp:SignedParts", "{port}: {cause}");
        // CXF confirms no signature unless asked: sp:RequireSignatureConfirmation.
        let confirmed = stricter(port, |r| *r = r.signature_confirmation());
        let e = x509_refused(port, confirmed, x509_credentials(), |t| t).await;
        let (assertion, cause) = not_met(e);
        assert_eq!(
            assertion, "sp:RequireSignatureConfirmation",
            "{port}: {cause}"
        );
        // Its signature in the clear, where a policy wants it encrypted: sp:EncryptSignature.
        let encrypted = stricter(port, |r| {
            if let Some(Binding::Symmetric(b)) = r.binding {
                r.binding = Some(Binding::Symmetric(b.encrypt_signature()));
            }
        });
        let e = x509_refused(port, encrypted, x509_credentials(), |t| t).await;
        let (assertion, cause) = not_met(e);
        assert_eq!(assertion, "sp:EncryptSignature", "{port}: {cause}");
    }
}

#[tokio::test]
async fn required_parts_and_elements_are_checked_both_ways() {
    let port = "DoubleItAsymmetricIssuerSerialPort";
    // CXF's response has a Security header and a doubledNumber: met.
    const NUMBER: &[XPathStep] = &[XPathStep {
        descendant: true,
        namespace: "",
        name: "doubledNumber",
    }];
    let met = stricter(port, |r| {
        *r = r
            .required_headers(&[(
                "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd",
                "Security",
            )])
            .required_elements(&[XPath {
                expression: "//doubledNumber",
                steps: NUMBER,
            }])
    });
    let client = Client::builder(cxf().url(&format!("/DoubleItX509/{port}")))
        .security_policy(met, x509_credentials())
        .build()
        .expect("client");
    assert_eq!(
        X509Client::from_client(client)
            .double_it(3)
            .await
            .expect("met"),
        6
    );
    // A header it does not carry: sp:RequiredParts; an element it does not have:
    // sp:RequiredElements.
    let header = stricter(port, |r| *r = r.required_headers(&[("urn:x", "Session")]));
    let e = x509_refused(port, header, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RequiredParts", "{cause}");
    assert!(cause.to_string().contains("{urn:x}Session"), "{cause}");
    const NOWHERE: &[XPathStep] = &[XPathStep {
        descendant: true,
        namespace: "urn:x",
        name: "Nowhere",
    }];
    let element = stricter(port, |r| {
        *r = r.required_elements(&[XPath {
            expression: "//x:Nowhere",
            steps: NOWHERE,
        }])
    });
    let e = x509_refused(port, element, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RequiredElements", "{cause}");
    // A request short of its own policy is not sent.
    let generated = policy_of(X509Client::port_policy(port), port);
    let mut op = generated.operations[0];
    op.request = op.request.required_headers(&[("urn:x", "Session")]);
    let ops: &'static [OperationPolicy] = Box::leak(Box::new([op]));
    let policy: &'static PortPolicy =
        Box::leak(Box::new(PortPolicy::new(generated.port, "request", ops)));
    let client = Client::builder(cxf().url(&format!("/DoubleItX509/{port}")))
        .security_policy(policy, x509_credentials())
        .build()
        .expect("client");
    let e = X509Client::from_client(client)
        .double_it(3)
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("sp:RequiredParts") && e.to_string().contains("{urn:x}Session"),
        "{e}"
    );
}

/// The generated policy of `port` (of DoubleItX509.wsdl), its responses held to more by `edit`;
/// its requests as generated.
fn stricter(port: &str, edit: impl FnOnce(&mut MessagePolicy)) -> &'static PortPolicy {
    let generated = policy_of(X509Client::port_policy(port), port);
    let mut op = generated.operations[0];
    edit(&mut op.response);
    let ops: &'static [OperationPolicy] = Box::leak(Box::new([op]));
    Box::leak(Box::new(PortPolicy::new(generated.port, "stricter", ops)))
}

#[tokio::test]
async fn a_response_without_the_timestamp_the_policy_demands_is_refused_naming_it() {
    let port = "DoubleItPlaintextPort";
    let url = cxf().https_url(&format!("/DoubleItUt/{port}"));
    let tls = ReqwestTransport::builder()
        .trust_anchors(TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem"))
        .build()
        .expect("transport");
    let client = Client::builder(url)
        .transport(Arc::new(Tamper(tls, |t| without(t, "wsu:Timestamp"))))
        .security_policy(
            policy_of(UtClient::port_policy(port), port),
            Credentials::new().username(USER.0, USER.1),
        )
        .build()
        .expect("client");
    let e = UtClient::from_client(client)
        .double_it(3)
        .await
        .unwrap_err();
    let (assertion, cause) = not_met(e.error);
    assert_eq!(assertion, "sp:IncludeTimestamp");
    assert!(matches!(cause, WssError::MissingTimestamp), "{cause}");
}

#[test]
fn wss_after_security_policy_replaces_it_with_what_it_lacked() {
    // The policy lacks the client's key; the hand-built configuration that follows wins.
    let port = "DoubleItAsymmetricIssuerSerialPort";
    let policy = policy_of(X509Client::port_policy(port), port);
    let built = Client::builder("http://127.0.0.1:9/")
        .security_policy(policy, Credentials::new())
        .wss(soapgen_runtime::wss::WssConfig::new())
        .build();
    assert!(built.is_ok(), "{:?}", built.err());
}

#[tokio::test]
async fn headers_named_by_namespace_only_are_held_to_the_policy_in_responses() {
    // An `sp:Header` without `Name`: every block of the namespace the response has.
    let port = "DoubleItAsymmetricIssuerSerialPort";
    fn session(t: String) -> String {
        with_header(t, r#"<x:Session xmlns:x="urn:x">s</x:Session>"#)
    }
    // CXF's response has no block of urn:x: met.
    let signed = stricter(port, |r| {
        *r = r.signed(Parts::new(true, &[("urn:x", "")]));
    });
    let client = Client::builder(cxf().url(&format!("/DoubleItX509/{port}")))
        .security_policy(signed, x509_credentials())
        .build()
        .expect("client");
    let doubled = X509Client::from_client(client).double_it(4).await;
    assert_eq!(doubled.expect("met"), 8);
    // One added, unsigned: sp:SignedParts, naming the block.
    let e = x509_refused(port, signed, x509_credentials(), session).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:SignedParts", "{cause}");
    assert!(cause.to_string().contains("{urn:x}Session"), "{cause}");
    // One added in the clear: sp:EncryptedParts.
    let encrypted = stricter(port, |r| {
        *r = r.encrypted(Parts::new(true, &[("urn:x", "")]));
    });
    let e = x509_refused(port, encrypted, x509_credentials(), session).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:EncryptedParts", "{cause}");
    assert!(cause.to_string().contains("{urn:x}Session"), "{cause}");
    // None at all where one is required: sp:RequiredParts, naming the namespace.
    let required = stricter(port, |r| *r = r.required_headers(&[("urn:x", "")]));
    let e = x509_refused(port, required, x509_credentials(), |t| t).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:RequiredParts", "{cause}");
    assert!(
        cause.to_string().contains("a header block of urn:x"),
        "{cause}"
    );
}

#[tokio::test]
async fn elements_named_by_xpath_are_held_to_the_policy_in_responses() {
    let port = "DoubleItAsymmetricIssuerSerialPort";
    const NUMBER: &[XPathStep] = &[XPathStep {
        descendant: true,
        namespace: "",
        name: "doubledNumber",
    }];
    const SESSION: &[XPathStep] = &[XPathStep {
        descendant: true,
        namespace: "urn:x",
        name: "Session",
    }];
    const NUMBER_PATH: &[XPath] = &[XPath {
        expression: "//doubledNumber",
        steps: NUMBER,
    }];
    const SESSION_PATH: &[XPath] = &[XPath {
        expression: "//x:Session",
        steps: SESSION,
    }];
    fn session(t: String) -> String {
        with_header(t, r#"<x:Session xmlns:x="urn:x">s</x:Session>"#)
    }
    // CXF signs and encrypts the Body: the doubledNumber inside it is both.
    let met = stricter(port, |r| {
        *r = r
            .signed_elements(NUMBER_PATH)
            .encrypted_elements(NUMBER_PATH)
    });
    let client = Client::builder(cxf().url(&format!("/DoubleItX509/{port}")))
        .security_policy(met, x509_credentials())
        .build()
        .expect("client");
    let doubled = X509Client::from_client(client).double_it(5).await;
    assert_eq!(doubled.expect("met"), 10);
    // A header block added, neither signed nor encrypted.
    let signed = stricter(port, |r| *r = r.signed_elements(SESSION_PATH));
    let e = x509_refused(port, signed, x509_credentials(), session).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:SignedElements", "{cause}");
    assert!(cause.to_string().contains("//x:Session"), "{cause}");
    let encrypted = stricter(port, |r| *r = r.encrypted_elements(SESSION_PATH));
    let e = x509_refused(port, encrypted, x509_credentials(), session).await;
    let (assertion, cause) = not_met(e);
    assert_eq!(assertion, "sp:EncryptedElements", "{cause}");
    assert!(cause.to_string().contains("//x:Session"), "{cause}");
}

/// A man in the middle that turns each response into SOAP with Attachments: the envelope as the
/// root part of a multipart/related body, and an attachment of its own after it.
#[derive(Debug)]
struct AddAttachment(ReqwestTransport);

impl Transport for AddAttachment {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(async move {
            let mut resp = self.0.send(request).await?;
            let mut body = b"--b1\r\nContent-Type: text/xml; charset=UTF-8\r\n\
                Content-ID: <root@peer>\r\n\r\n"
                .to_vec();
            body.extend_from_slice(&resp.body);
            body.extend_from_slice(
                b"\r\n--b1\r\nContent-Type: image/jpeg\r\nContent-ID: <added@peer>\r\n\r\n\
                  not signed, not encrypted\r\n--b1--\r\n",
            );
            resp.headers.retain(|(k, _)| k != "content-type");
            resp.headers.push((
                "content-type".to_owned(),
                "multipart/related; type=\"text/xml\"; boundary=b1; start=\"<root@peer>\""
                    .to_owned(),
            ));
            resp.body = body.into();
            Ok(resp)
        })
    }
}

#[tokio::test]
async fn attachments_of_responses_are_held_to_the_policy() {
    // The SwA ports' policies sign (encrypt) the attachments of the responses too: CXF's have
    // none, and pass; one that carries an attachment is refused, soapgen not verifying a
    // response's attachments yet.
    for (port, assertion) in [
        ("DoubleItSWASignatureCompletePolicyPort", "sp:SignedParts"),
        ("DoubleItSWAEncryptionPolicyPort", "sp:EncryptedParts"),
    ] {
        let policy = policy_of(swa::DoubleItServiceClient::port_policy(port), port);
        let call = |transport: Option<Arc<dyn Transport>>| async move {
            let mut b = Client::builder(cxf().url(&format!("/DoubleItSwa/{port}")))
                .security_policy(policy, x509_credentials());
            if let Some(t) = transport {
                b = b.transport(t);
            }
            let photo = soapgen_runtime::mime::Attachment::new("image/jpeg", b"3 a photo".to_vec());
            swa::DoubleItServiceClient::from_client(b.build().expect("client"))
                .double_it3(3, photo)
                .await
        };
        assert_eq!(
            call(None).await.unwrap_or_else(|e| panic!("{port}: {e}")),
            6
        );
        let added = Arc::new(AddAttachment(ReqwestTransport::builder().build().unwrap()));
        let e = call(Some(added)).await.unwrap_err();
        let (found, cause) = not_met(e.into());
        assert_eq!(found, assertion, "{port}: {cause}");
        assert!(
            cause.to_string().contains("attachment <added@peer>"),
            "{cause}"
        );
    }
}

#[tokio::test]
async fn no_address_a_call_may_go_to_lets_a_transport_binding_go_in_clear() {
    // The port's TransportBinding needs HTTPS: a failover set with a plain HTTP address is
    // refused when the client is built, and a client moved to one refuses each call, before
    // anything is sent (the password would travel in clear).
    let port = "DoubleItPlaintextPort";
    let policy = policy_of(UtClient::port_policy(port), port);
    let https = cxf().https_url(&format!("/DoubleItUt/{port}"));
    let http = cxf().url(&format!("/DoubleItUt/{port}"));
    let creds = || Credentials::new().username(USER.0, USER.1);
    let e = Client::builder(&https)
        .security_policy(policy, creds())
        .failover(soapgen_runtime::Failover::ordered([
            https.as_str(),
            http.as_str(),
        ]))
        .build()
        .unwrap_err();
    assert!(
        matches!(e, Error::Security(ref w) if matches!(**w, WssError::HttpsRequired { ref endpoint, .. } if *endpoint == http)),
        "{e}"
    );
    let rec = Arc::new(Recording::new());
    let client = Client::builder(&https)
        .security_policy(policy, creds())
        .transport(rec.clone())
        .build()
        .expect("client");
    let e = UtClient::from_client(client.with_endpoint(&http))
        .double_it(1)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("needs an https endpoint"), "{e}");
    assert!(rec.exchanges().is_empty(), "nothing sent");
}
