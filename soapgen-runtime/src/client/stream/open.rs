//! The start of a streamed response, read and checked as a buffered call's response is, and a
//! body read whole where it must be (its large attachments through the client's store).

use bytes::Bytes;

use super::super::exchange::Exchanged;
use super::super::{Client, ResponseShape};
use super::window::Core;
use crate::error::{DecodeError, Error, TransportError, TransportErrorKind};
use crate::header::ResponseHeaders;
use crate::message::Operation;
use crate::transport::BodyStream;
use crate::xml::{Limits, Name, XmlReader};

/// How a streamed response is read: its items from the body as it comes, or the whole body.
pub(super) enum Opened {
    Items(Box<Core>),
    Whole(Box<Exchanged>, Box<Core>),
}

/// What the start of a streamed response showed.
enum Prelude {
    /// The wrapper's start tag ends at this offset: the items follow.
    Items {
        at: usize,
        open: Vec<String>,
        bindings: Vec<(String, String)>,
    },
    /// Not a response to read item by item (a fault, an empty wrapper, another element).
    Whole,
}

/// Reads the start of a response, `text`, up to the response wrapper `wrapper` (any element
/// with `rpc`), or with `holder`, up to the wrapper's child `holder` that holds the items.
fn prelude(
    text: &str,
    wrapper: Name<'_>,
    holder: Option<Name<'_>>,
    rpc: bool,
    limits: Limits,
) -> Result<Prelude, DecodeError> {
    let mut r = XmlReader::with_limits(text, limits);
    let env = r.root()?;
    let soap = env.namespace();
    if env.local_name() != "Envelope" {
        return Ok(Prelude::Whole);
    }
    let Some(mut child) = r.next_child()? else {
        return Ok(Prelude::Whole);
    };
    if child.local_name() == "Header" && child.namespace() == soap {
        r.skip_element()?;
        match r.next_child()? {
            Some(c) => child = c,
            None => return Ok(Prelude::Whole),
        }
    }
    if child.local_name() != "Body" || child.namespace() != soap {
        return Ok(Prelude::Whole);
    }
    let Some(w) = r.next_child()? else {
        return Ok(Prelude::Whole);
    };
    let fault = w.local_name() == "Fault" && w.namespace() == soap;
    if fault || !(rpc || w.is(wrapper)) || r.at_empty_element() {
        return Ok(Prelude::Whole);
    }
    if let Some(holder) = holder {
        // The result element that holds the items; absent, nil or empty: read whole (no items).
        let Some(h) = r.next_child()? else {
            return Ok(Prelude::Whole);
        };
        if !h.is(holder) || r.at_empty_element() || r.is_nil(&h)? {
            return Ok(Prelude::Whole);
        }
    }
    Ok(Prelude::Items {
        at: r.position(),
        open: r.open_names(),
        bindings: r.bindings_in_scope(),
    })
}

impl Client {
    /// Reads the start of the streamed response of `exchanged` (a call of `op` laid out as
    /// `shape`) and checks it as a buffered call's, or reads the whole response where it must
    /// be read whole. Not generic.
    pub(super) async fn open_stream(
        &self,
        op: &Operation,
        mut exchanged: Exchanged,
        shape: &ResponseShape,
    ) -> Result<Opened, Error> {
        let body = exchanged.rest.take().unwrap_or_else(|| {
            let whole = exchanged.response.body.clone();
            crate::transport::StreamingResponse::whole(crate::transport::HttpResponse {
                status: 200,
                headers: Vec::new(),
                body: whole,
            })
            .body
        });
        let resp = &exchanged.response;
        let mut core = Box::new(Core::new(
            body,
            Some(self),
            resp.status,
            resp.headers.clone(),
        ));
        let mut streamable = (200..300).contains(&resp.status)
            && !resp
                .content_type()
                .is_some_and(crate::mime::is_multipart_related)
            && resp
                .content_type()
                .and_then(crate::xml::charset_of)
                .is_none_or(|c| c.eq_ignore_ascii_case("utf-8"))
            && !exchanged.layers.iter().any(|l| l.whole_response());
        let (wrapper, holder, item, min, rpc) = match *shape {
            ResponseShape::Wrapped {
                wrapper,
                result,
                min,
                rpc,
                items: None,
            } => (wrapper, None, result, min, rpc),
            ResponseShape::Wrapped {
                wrapper,
                result,
                min,
                rpc,
                items: Some(items),
            } => (wrapper, Some(result), items, min, rpc),
            _ => {
                streamable = false;
                (Name::new("", ""), None, Name::new("", ""), 0, false)
            }
        };
        let mut found = None;
        #[allow(clippy::while_let_loop)]
        while streamable {
            core.fill().await?;
            if !crate::xml::declares_utf8(&core.buf[..core.buf.len().min(256)]) {
                break;
            }
            match prelude(core.window(), wrapper, holder, rpc, core.limits) {
                Ok(Prelude::Items { at, open, bindings }) => {
                    found = Some((at, open, bindings));
                    break;
                }
                Ok(Prelude::Whole) => streamable = false,
                Err(_) if core.all_read() => streamable = false,
                Err(_) => {
                    let have = core.buf.len() - core.start;
                    core.grow(have)?;
                }
            }
            if core.bad_utf8 {
                streamable = false;
            }
        }
        let Some((at, open, bindings)) = found else {
            // Read whole, as a buffered call (its large attachments to the store's files).
            exchanged.rest = core.body.take();
            self.finish_body(&mut exchanged, std::mem::take(&mut core.buf))
                .await?;
            return Ok(Opened::Whole(Box::new(exchanged), core));
        };
        // The start of the response as a whole message: its elements closed after the wrapper's
        // start tag, and read as a buffered call's response is.
        let mut text = core.window()[..at].to_owned();
        for qname in open.iter().rev() {
            text.push_str("</");
            text.push_str(qname);
            text.push('>');
        }
        exchanged.response.body = Bytes::from(text);
        let mut kept = Vec::new();
        self.read_result(
            op,
            &mut exchanged,
            Some(&mut kept),
            &mut |child, _| match child {
                Some((r, _)) => r.skip_element(),
                None => Ok(()),
            },
        )?;
        core.headers = ResponseHeaders::from(kept);
        core.consume(at);
        core.open = open;
        core.bindings = bindings;
        core.item = item;
        core.holder = holder;
        core.min = min;
        core.need = core.window_size();
        Ok(Opened::Items(core))
    }
}

impl Client {
    /// Reads the rest of a streamed exchange's body, after the `prefix` already read: a
    /// `multipart/related` 2xx response through the client's
    /// [`AttachmentStore`](crate::mime::AttachmentStore) when it has one (its large parts to
    /// files, [`Exchanged::multipart`]), anything else whole into the response, within
    /// `max_response_bytes`. The client's timeout bounds each wait for a chunk. Not generic.
    pub(crate) async fn finish_body(
        &self,
        exchanged: &mut Exchanged,
        prefix: Vec<u8>,
    ) -> Result<(), Error> {
        let mut body = exchanged.rest.take();
        if body.is_none() && prefix.is_empty() {
            return Ok(());
        }
        let settings = &self.inner.settings;
        let cap = settings.max_response_bytes;
        let resp = &exchanged.response;
        let ok = (200..300).contains(&resp.status);
        let content_type = resp.content_type().unwrap_or_default().to_owned();
        let endpoint = self.inner.endpoint.as_str();
        let mut spool = match &settings.attachment_store {
            Some(store) if ok && crate::mime::is_multipart_related(&content_type) => {
                crate::mime::spool::Spool::new(store, &content_type, cap)
            }
            _ => None,
        };
        let too_large = |why: String| {
            Error::Transport(TransportError::new(
                TransportErrorKind::TooLarge,
                endpoint,
                why,
                None,
            ))
        };
        let spool_error = |e: crate::mime::spool::SpoolError| match e {
            crate::mime::spool::SpoolError::TooLarge(why) => too_large(why),
            crate::mime::spool::SpoolError::Io(why) => Error::Transport(TransportError::new(
                TransportErrorKind::Other,
                endpoint,
                why,
                None,
            )),
            crate::mime::spool::SpoolError::Mime(m) => Error::Mime(Box::new(m)),
        };
        let mut whole = prefix;
        let mut read = whole.len() as u64;
        if let Some(s) = spool.as_mut() {
            s.push(&whole).map_err(spool_error)?;
            whole = Vec::new();
        } else if whole.len() > cap {
            return Err(too_large(format!(
                "response body exceeds the limit of {cap} bytes"
            )));
        }
        while let Some(chunk) = match body.as_mut() {
            Some(b) => next_chunk(b, settings.deadline, endpoint, read).await?,
            None => None,
        } {
            read += chunk.len() as u64;
            match spool.as_mut() {
                Some(s) => s.push(&chunk).map_err(spool_error)?,
                None if whole.len() + chunk.len() > cap => {
                    return Err(too_large(format!(
                        "response body exceeds the limit of {cap} bytes"
                    )))
                }
                None => whole.extend_from_slice(&chunk),
            }
        }
        match spool {
            Some(s) => {
                let m = s
                    .finish(&content_type, settings.limits.max_mime_parts)
                    .map_err(spool_error)?;
                exchanged.multipart = Some(m);
            }
            None => exchanged.response.body = Bytes::from(whole),
        }
        Ok(())
    }
}

/// The next chunk of `body` (`None` at its end), waiting at most `idle` for it; `read`: the
/// bytes of the body read before it, for the error.
async fn next_chunk(
    body: &mut BodyStream,
    idle: Option<std::time::Duration>,
    endpoint: &str,
    read: u64,
) -> Result<Option<Bytes>, Error> {
    let next = std::future::poll_fn(|cx| body.as_mut().poll_next(cx));
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    if let Some(d) = idle {
        return match tokio::time::timeout(d, next).await {
            Ok(r) => r.transpose().map_err(Error::Transport),
            Err(_) => Err(Error::Transport(TransportError::new(
                TransportErrorKind::Timeout,
                endpoint,
                format!(
                    "no bytes of the response for {d:?} after byte {read} (ClientBuilder::timeout, \
                     between two chunks of a body read as it arrives)"
                ),
                None,
            ))),
        };
    }
    #[cfg(not(any(feature = "reqwest", feature = "hyper", feature = "blocking")))]
    let _ = (idle, endpoint, read);
    next.await.transpose().map_err(Error::Transport)
}
