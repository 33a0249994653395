//! Any bytes as a secured SOAP response, processed by the WS-Security verifier and decryptor
//! (`WssConfig::check_response`): signatures, key references, trust, EncryptedKey and
//! EncryptedData, Timestamps, UsernameTokens. A report or a typed error, never a panic.
//!
//! The first byte chooses the policy (signature required or not, encryption required or not,
//! RSA-1_5 and 3DES allowed or not, a low References limit); the rest is the envelope. The key and
//! certificate come from `$SOAPGEN_FUZZ_PKI/{key,cert}.pem`, made by fuzz/run.sh with openssl
//! (the seeds are signed and encrypted with them by xmlsec1); without it, a built-in policy
//! without a key still runs every parsing path.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use soapgen_runtime::wss::{
    AlgorithmPolicy, Certificate, TrustStore, UtcTime, WssConfig, X509Credential,
};

struct Keys {
    cert: Option<Certificate>,
    credential: Option<X509Credential>,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let dir = std::env::var_os("SOAPGEN_FUZZ_PKI").map(std::path::PathBuf::from);
        let read = |name: &str| dir.as_ref().and_then(|d| std::fs::read(d.join(name)).ok());
        match (read("cert.pem"), read("key.pem")) {
            (Some(c), Some(k)) => Keys {
                cert: Certificate::from_pem(&c, "cert.pem").ok(),
                credential: X509Credential::from_pem(&c, &k).ok(),
            },
            _ => Keys {
                cert: None,
                credential: None,
            },
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, envelope)) = data.split_first() else {
        return;
    };
    let k = keys();
    let mut trust = TrustStore::new();
    if let Some(c) = &k.cert {
        trust = trust.anchor(c.clone()).certificate(c.clone());
    }
    let mut policy = AlgorithmPolicy::default();
    if selector & 4 != 0 {
        policy = policy
            .allow("http://www.w3.org/2001/04/xmlenc#rsa-1_5")
            .allow("http://www.w3.org/2001/04/xmlenc#tripledes-cbc");
    }
    let mut cfg = WssConfig::new()
        .trust(trust)
        .algorithms(policy)
        .require_signature(selector & 1 != 0)
        .require_encryption(selector & 2 != 0)
        .require_timestamp(selector & 16 != 0);
    if let Some(c) = &k.credential {
        cfg = cfg.decrypt_with(c.clone());
    }
    if selector & 8 != 0 {
        cfg = cfg.max_signature_references(2);
    }
    if selector & 32 != 0 {
        cfg = cfg.expect_username_token("user", "pw");
    }
    if let Ok(report) = cfg.check_response(envelope, UtcTime::now()) {
        let _ = format!("{report:?}");
    }
});
