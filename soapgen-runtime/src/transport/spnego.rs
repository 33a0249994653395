//! SPNEGO tokens (RFC 4178 §4.2) carrying NTLM (MS-NLMP) or Kerberos V5 (RFC 4121) for HTTP's
//! `Negotiate` scheme (RFC 4559 §4), by the ASN.1 types of `picky-krb` (`gss_api`) and
//! `picky-asn1`.
//!
//! The initiator offers one [`Mech`]. With Kerberos (OID 1.2.840.113554.1.2.2) the AP-REQ goes
//! in the `NegTokenInit` and the acceptor's final `NegTokenResp` carries the AP-REP (RFC 4121
//! §4.1, mutual authentication); the `mechListMIC` is then optional (RFC 4178 §5: the first
//! mechanism offered was chosen), checked when sent. With NTLMSSP (OID 1.3.6.1.4.1.311.2.2.10,
//! MS-SPNG §2.2) there are four legs:
//!
//! 1. `NegTokenInit` in a GSS-API `InitialContextToken` (RFC 2743 §3.1, OID 1.3.6.1.5.5.2) with
//!    `mechTypes` `[NTLMSSP]` and the NTLM NEGOTIATE message as `mechToken`;
//! 2. the acceptor's `NegTokenResp` (`negState` accept-incomplete or request-mic,
//!    `supportedMech` NTLMSSP, the CHALLENGE message as `responseToken`);
//! 3. a `NegTokenResp` with the AUTHENTICATE message as `responseToken` and the `mechListMIC`
//!    (RFC 4178 §5): the NTLM signature (MS-NLMP §3.4.4.2, sequence number 0) of the DER encoding
//!    of `mechTypes` as sent in step 1;
//! 4. the acceptor's last `NegTokenResp` (`negState` accept-completed, its own `mechListMIC` of the
//!    same bytes), on the `200` (RFC 4559 §4.1), which the initiator checks.

use picky_asn1::wrapper::{
    Asn1SequenceOf, ExplicitContextTag0, ExplicitContextTag1, ExplicitContextTag2,
    ExplicitContextTag3, ObjectIdentifierAsn1, OctetStringAsn1, Optional,
};
use picky_asn1_der::Asn1RawDer;
use picky_krb::gss_api::{
    ApplicationTag0, GssApiNegInit, MechType, MechTypeList, NegTokenInit, NegTokenTarg,
    NegTokenTarg1,
};

/// `negState` of a `NegTokenResp` (RFC 4178 §4.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NegState {
    AcceptCompleted,
    AcceptIncomplete,
    Reject,
    RequestMic,
}

/// The fields of an acceptor's `NegTokenResp` this initiator reads.
#[derive(Debug)]
pub(crate) struct NegTokenResp {
    /// Absent after the first reply (RFC 4178 §4.2.2: required only in the first).
    pub(crate) neg_state: Option<NegState>,
    /// The mechanism the acceptor chose, as a dotted OID.
    pub(crate) supported_mech: Option<String>,
    pub(crate) response_token: Option<Vec<u8>>,
    pub(crate) mech_list_mic: Option<Vec<u8>>,
}

/// The mechanism an initiator offers, alone, in `mechTypes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mech {
    /// NTLMSSP, OID 1.3.6.1.4.1.311.2.2.10 (MS-SPNG §2.2).
    #[cfg_attr(not(feature = "ntlm"), allow(dead_code))]
    Ntlm,
    /// Kerberos V5, OID 1.2.840.113554.1.2.2 (RFC 4121 §1).
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    Kerberos,
}

impl Mech {
    /// The OID, dotted.
    pub(crate) fn oid(self) -> &'static str {
        match self {
            Mech::Ntlm => "1.3.6.1.4.1.311.2.2.10",
            Mech::Kerberos => "1.2.840.113554.1.2.2",
        }
    }

    fn mech_type(self) -> MechType {
        ObjectIdentifierAsn1::from(match self {
            Mech::Ntlm => picky_asn1_x509::oids::ntlm_ssp(),
            Mech::Kerberos => picky_asn1_x509::oids::krb5(),
        })
    }
}

/// The DER of `mechTypes` = `SEQUENCE OF MechType` with `mech` alone: the bytes both
/// `mechListMIC`s sign (RFC 4178 §5).
pub(crate) fn mech_types_der(mech: Mech) -> Result<Vec<u8>, String> {
    let list: MechTypeList = Asn1SequenceOf::from(vec![mech.mech_type()]);
    picky_asn1_der::to_vec(&list).map_err(|e| format!("cannot encode mechTypes: {e}"))
}

/// The initiator's first token: `InitialContextToken` wrapping `NegTokenInit` with `mechTypes`
/// `[mech]` and `mech_token` (the NTLM NEGOTIATE message, or the Kerberos AP-REQ).
pub(crate) fn neg_token_init(mech: Mech, mech_token: Vec<u8>) -> Result<Vec<u8>, String> {
    let token = ApplicationTag0(GssApiNegInit {
        oid: ObjectIdentifierAsn1::from(picky_asn1_x509::oids::spnego()),
        neg_token_init: ExplicitContextTag0::from(NegTokenInit {
            mech_types: Optional::from(Some(ExplicitContextTag0::from(Asn1SequenceOf::from(
                vec![mech.mech_type()],
            )))),
            req_flags: Optional::from(None),
            mech_token: Optional::from(Some(ExplicitContextTag2::from(OctetStringAsn1::from(
                mech_token,
            )))),
            mech_list_mic: Optional::from(None),
        }),
    });
    picky_asn1_der::to_vec(&token).map_err(|e| format!("cannot encode NegTokenInit: {e}"))
}

/// An initiator's `NegTokenResp` with `response_token` and `mech_list_mic` (no `negState`: it is
/// optional after the acceptor's first reply, RFC 4178 §4.2.2).
pub(crate) fn neg_token_resp(
    response_token: Vec<u8>,
    mech_list_mic: Option<Vec<u8>>,
) -> Result<Vec<u8>, String> {
    let token = NegTokenTarg1::from(NegTokenTarg {
        neg_result: Optional::from(None),
        supported_mech: Optional::from(None),
        response_token: Optional::from(Some(ExplicitContextTag2::from(OctetStringAsn1::from(
            response_token,
        )))),
        mech_list_mic: Optional::from(
            mech_list_mic.map(|m| ExplicitContextTag3::from(OctetStringAsn1::from(m))),
        ),
    });
    picky_asn1_der::to_vec(&token).map_err(|e| format!("cannot encode NegTokenResp: {e}"))
}

/// Reads an acceptor's `NegTokenResp` (`[1]`-tagged, RFC 4178 §4.2.2).
///
/// The SEQUENCE is read as its raw elements and each context-tagged field decoded on its own
/// with the `picky-asn1` wrapper for its tag: decoding `picky-krb`'s `NegTokenTarg` in one go
/// gives a wrong `responseToken` (its OCTET STRING header kept) when `negState` is absent, which
/// RFC 4178 allows after the acceptor's first reply.
///
/// # Errors
///
/// A message when `der` is not a `NegTokenResp` (a `NegTokenInit` from the acceptor, a raw NTLM
/// message, bad DER), has a field of another tag, or its `negState` is not one of the four
/// values.
pub(crate) fn read_neg_token_resp(der: &[u8]) -> Result<NegTokenResp, String> {
    let not_resp =
        |e: &dyn std::fmt::Display| format!("not a SPNEGO NegTokenResp (RFC 4178 §4.2.2): {e}");
    if der.first() != Some(&0xa1) {
        return Err(not_resp(&format_args!(
            "first byte {:#04x}{}",
            der.first().copied().unwrap_or(0),
            if der.starts_with(b"NTLMSSP\0") {
                " (a bare NTLM message: the server speaks NTLM, not SPNEGO)"
            } else if der.first() == Some(&0x60) {
                " (a bare GSS-API token: the server answered with its mechanism's token, not SPNEGO)"
            } else {
                ""
            }
        )));
    }
    let fields: ExplicitContextTag1<Asn1SequenceOf<Asn1RawDer>> =
        picky_asn1_der::from_bytes(der).map_err(|e| not_resp(&e))?;
    let mut resp = NegTokenResp {
        neg_state: None,
        supported_mech: None,
        response_token: None,
        mech_list_mic: None,
    };
    for field in &(fields.0).0 {
        let bytes = field.0.as_slice();
        match bytes.first() {
            Some(0xa0) => {
                let v: ExplicitContextTag0<Asn1RawDer> =
                    picky_asn1_der::from_bytes(bytes).map_err(|e| not_resp(&e))?;
                resp.neg_state = Some(match (v.0).0.as_slice() {
                    // ENUMERATED, length 1.
                    [0x0a, 0x01, 0] => NegState::AcceptCompleted,
                    [0x0a, 0x01, 1] => NegState::AcceptIncomplete,
                    [0x0a, 0x01, 2] => NegState::Reject,
                    [0x0a, 0x01, 3] => NegState::RequestMic,
                    other => return Err(format!("unknown SPNEGO negState {other:02x?}")),
                });
            }
            Some(0xa1) => {
                let v: ExplicitContextTag1<MechType> =
                    picky_asn1_der::from_bytes(bytes).map_err(|e| not_resp(&e))?;
                resp.supported_mech = Some((&(v.0).0).into());
            }
            Some(0xa2) => {
                let v: ExplicitContextTag2<OctetStringAsn1> =
                    picky_asn1_der::from_bytes(bytes).map_err(|e| not_resp(&e))?;
                resp.response_token = Some((v.0).0);
            }
            Some(0xa3) => {
                let v: ExplicitContextTag3<OctetStringAsn1> =
                    picky_asn1_der::from_bytes(bytes).map_err(|e| not_resp(&e))?;
                resp.mech_list_mic = Some((v.0).0);
            }
            _ => {
                return Err(not_resp(&format_args!(
                    "a field tagged {:#04x}",
                    bytes.first().copied().unwrap_or(0)
                )))
            }
        }
    }
    Ok(resp)
}

/// The token of `scheme` among the `WWW-Authenticate` values: `""` for the scheme alone,
/// `None` if the scheme is not there (one challenge per line: the token68 form cannot share a
/// line, RFC 9110 §11.6.1).
pub(crate) fn find_token<'a>(scheme: &str, challenges: &[&'a str]) -> Option<&'a str> {
    challenges.iter().find_map(|v| {
        let v = v.trim();
        let (name, rest) = v.split_once(' ').unwrap_or((v, ""));
        name.eq_ignore_ascii_case(scheme).then(|| rest.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mech_types_is_the_der_of_one_oid() {
        // SEQUENCE { OID 1.3.6.1.4.1.311.2.2.10 }
        assert_eq!(
            mech_types_der(Mech::Ntlm).unwrap(),
            [0x30, 0x0c, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a]
        );
    }

    #[test]
    fn neg_token_init_wraps_the_mech_token() {
        let der = neg_token_init(Mech::Ntlm, b"NTLMSSP\0x".to_vec()).unwrap();
        // [APPLICATION 0] { OID 1.3.6.1.5.5.2, [0] NegTokenInit { [0] mechTypes, [2] token } }
        assert_eq!(der[0], 0x60);
        assert_eq!(
            &der[2..10],
            [0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02]
        );
        assert!(der.ends_with(b"NTLMSSP\0x"), "{der:02x?}");
    }

    #[test]
    fn neg_token_resp_round_trips_and_bad_input_is_an_error() {
        let der = neg_token_resp(b"tok".to_vec(), Some(vec![1; 16])).unwrap();
        let r = read_neg_token_resp(&der).unwrap();
        assert_eq!(r.neg_state, None);
        assert_eq!(r.response_token.as_deref(), Some(&b"tok"[..]));
        assert_eq!(r.mech_list_mic, Some(vec![1; 16]));
        // negState, supportedMech, responseToken, as an acceptor's first reply.
        let first = [
            0xa1, 0x1c, 0x30, 0x1a, 0xa0, 0x03, 0x0a, 0x01, 0x01, 0xa1, 0x0c, 0x06, 0x0a, 0x2b,
            0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a, 0xa2, 0x05, 0x04, 0x03, b't',
            b'o', b'k',
        ];
        let r = read_neg_token_resp(&first).unwrap();
        assert_eq!(r.neg_state, Some(NegState::AcceptIncomplete));
        assert_eq!(r.supported_mech.as_deref(), Some(Mech::Ntlm.oid()));
        assert_eq!(r.response_token.as_deref(), Some(&b"tok"[..]));
        assert_eq!(r.mech_list_mic, None);
        assert!(
            read_neg_token_resp(&[0xa1, 0x07, 0x30, 0x05, 0xa0, 0x03, 0x0a, 0x01, 0x07])
                .unwrap_err()
                .contains("negState")
        );
        assert!(read_neg_token_resp(b"NTLMSSP\0\x02")
            .unwrap_err()
            .contains("bare NTLM"));
        assert!(read_neg_token_resp(&[0xa1, 0x05, 0x30]).is_err());
        assert!(read_neg_token_resp(&[]).is_err());
    }
}
