//! The responses of the reqwest transport: header fields, the body read whole (under the size
//! limit) or as it comes, and reqwest's errors as [`TransportError`]s of the kind they are.

use bytes::{Bytes, BytesMut};

use super::{BodyStream, HttpResponse};
use crate::error::{TransportError, TransportErrorKind};

/// The status and header fields of `resp`, names lowercase.
pub(super) fn header_fields(resp: &reqwest::Response) -> Vec<(String, String)> {
    super::header_pairs(
        resp.headers()
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_bytes())),
    )
}

/// Reads the whole body of `resp`, refusing one over `limit` bytes.
pub(super) async fn read_whole(
    mut resp: reqwest::Response,
    url: &str,
    limit: usize,
) -> Result<HttpResponse, TransportError> {
    let status = resp.status().as_u16();
    let headers = header_fields(&resp);
    if let Some(len) = resp.content_length() {
        if len > limit as u64 {
            return Err(too_large(url, limit));
        }
    }
    let Some(first) = resp.chunk().await.map_err(|e| map_error(e, url))? else {
        return Ok(HttpResponse {
            status,
            headers,
            body: Bytes::new(),
        });
    };
    if first.len() > limit {
        return Err(too_large(url, limit));
    }
    let Some(second) = resp.chunk().await.map_err(|e| map_error(e, url))? else {
        return Ok(HttpResponse {
            status,
            headers,
            body: first,
        });
    };
    let mut body = BytesMut::with_capacity(
        resp.content_length()
            .map(|l| l as usize)
            .unwrap_or(first.len() + second.len())
            .min(limit),
    );
    body.extend_from_slice(&first);
    if body.len() + second.len() > limit {
        return Err(too_large(url, limit));
    }
    body.extend_from_slice(&second);
    while let Some(chunk) = resp.chunk().await.map_err(|e| map_error(e, url))? {
        if body.len() + chunk.len() > limit {
            return Err(too_large(url, limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(HttpResponse {
        status,
        headers,
        body: body.freeze(),
    })
}

/// The body of `resp` as a [`BodyStream`]: each chunk as reqwest reads it.
pub(super) fn body_stream(resp: reqwest::Response, url: String) -> BodyStream {
    type Next = std::pin::Pin<
        Box<
            dyn std::future::Future<
                    Output = (
                        Result<Option<bytes::Bytes>, reqwest::Error>,
                        reqwest::Response,
                    ),
                > + Send,
        >,
    >;
    fn next(mut resp: reqwest::Response) -> Next {
        Box::pin(async move { (resp.chunk().await, resp) })
    }
    struct Chunks {
        pending: Option<Next>,
        url: String,
    }
    impl futures_core::Stream for Chunks {
        type Item = Result<bytes::Bytes, TransportError>;
        fn poll_next(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            let Some(fut) = self.pending.as_mut() else {
                return std::task::Poll::Ready(None);
            };
            let (out, resp) = std::task::ready!(fut.as_mut().poll(cx));
            self.pending = None;
            std::task::Poll::Ready(match out {
                Ok(Some(chunk)) => {
                    self.pending = Some(next(resp));
                    Some(Ok(chunk))
                }
                Ok(None) => None,
                Err(e) => Some(Err(map_error(e, &self.url))),
            })
        }
    }
    Box::pin(Chunks {
        pending: Some(next(resp)),
        url,
    })
}

/// The TLS alerts (as rustls names them) by which a server refuses a missing or untrusted client
/// certificate (RFC 8446 §6.2).
const TLS_CLIENT_CERT_ALERTS: &[&str] = &[
    "CertificateRequired",
    "BadCertificate",
    "UnknownCA",
    "CertificateUnknown",
    "HandshakeFailure",
];

fn too_large(url: &str, limit: usize) -> TransportError {
    TransportError::new(
        TransportErrorKind::TooLarge,
        url,
        format!("response body exceeds the limit of {limit} bytes"),
        None,
    )
}

pub(super) fn map_error(e: reqwest::Error, url: &str) -> TransportError {
    let mut kind = if e.is_timeout() {
        TransportErrorKind::Timeout
    } else if e.is_connect() {
        TransportErrorKind::Connect
    } else if e.is_builder() || e.is_request() && e.url().is_none() {
        TransportErrorKind::Request
    } else {
        TransportErrorKind::Other
    };
    let mut message = super::with_causes(&e);
    // Which timeout: the connection's, else one between reads or the whole request's.
    if e.is_timeout() {
        message.push_str(if e.is_connect() {
            " (no connection within the connect timeout: ClientBuilder::connect_timeout)"
        } else {
            " (no bytes within the read timeout, ClientBuilder::read_timeout, or no complete \
             response within the whole request's timeout, ClientBuilder::timeout, or \
             ReqwestTransportBuilder::timeout on a transport built by hand)"
        });
    }
    // A TLS handshake the server ended because of the client's certificate (TLS 1.3 sends the
    // alert after the client's Finished, so it surfaces on the first read, not on connect).
    if let Some(alert) = TLS_CLIENT_CERT_ALERTS.iter().find(|a| message.contains(*a)) {
        kind = TransportErrorKind::Tls;
        message.push_str(&format!(
            " (the server ended the TLS handshake with alert {alert}: from a server that requires \
             a client certificate, RFC 8446 §4.3.2, it means none was sent or the one sent is \
             not trusted; see ClientBuilder::client_identity)"
        ));
    } else if message.contains("invalid peer certificate") || message.contains("UnknownIssuer") {
        kind = TransportErrorKind::Tls;
        message.push_str(
            " (the server's certificate does not chain to a trusted root, RFC 5280 §6; for a \
             private CA see ClientBuilder::trust_anchors)",
        );
    }
    let connect = e.is_connect();
    let err = TransportError::new(kind, url, message, Some(Box::new(e)));
    if connect {
        err.not_sent()
    } else {
        err
    }
}
