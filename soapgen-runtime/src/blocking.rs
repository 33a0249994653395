//! Blocking use of generated clients (feature `blocking`), as `reqwest::blocking` wraps reqwest's async
//! client: a generated `…BlockingClient` owns a [`BlockingRuntime`] and drives the async client on it.
//!
//! A blocking call made where a tokio runtime is current (inside `async` code, a `#[tokio::main]`
//! or `#[tokio::test]` function, or a thread of a runtime's blocking pool) is refused with
//! [`Error::Transport`](crate::Error::Transport) of kind
//! [`TransportErrorKind::BlockingInAsync`]
//! rather than left to tokio's panic on a nested `block_on`.

use std::future::Future;
use std::sync::Arc;

use crate::error::{TransportError, TransportErrorKind};

/// The single-threaded tokio runtime blocking clients drive their calls on: one per process
/// ([`new`](Self::new)).
///
/// Calls are refused (a typed error, see the [module docs](self)) on a thread where a tokio
/// runtime is current; use the async client there.
#[derive(Debug, Clone)]
pub struct BlockingRuntime {
    rt: Arc<Owned>,
}

/// The runtime, shut down without blocking when dropped inside another runtime (where tokio's
/// blocking shutdown panics).
#[derive(Debug)]
struct Owned(Option<tokio::runtime::Runtime>);

impl Drop for Owned {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                rt.shutdown_background();
            }
        }
    }
}

impl BlockingRuntime {
    /// The process's runtime for blocking clients: one current-thread runtime with I/O and
    /// timers enabled, made on first use and shared by every blocking client (tokio lets several
    /// threads block on it at once, taking turns at its drivers). One runtime, because a pooled
    /// connection belongs to the runtime it was opened on: blocking clients that share a
    /// [`Client`](crate::Client), and so its transport's pool, must drive it on the same one.
    ///
    /// # Errors
    ///
    /// The I/O error if the OS refuses the runtime's resources (an epoll instance, an eventfd);
    /// the next call tries again.
    pub fn new() -> std::io::Result<Self> {
        static SHARED: std::sync::Mutex<Option<Arc<Owned>>> = std::sync::Mutex::new(None);
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rt) = shared.as_ref() {
            return Ok(BlockingRuntime { rt: rt.clone() });
        }
        let rt = Arc::new(Owned(Some(
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?,
        )));
        *shared = Some(rt.clone());
        Ok(BlockingRuntime { rt })
    }

    fn runtime(&self) -> &tokio::runtime::Runtime {
        // `Some` until dropped.
        self.rt
            .0
            .as_ref()
            .expect("the runtime lives as long as its owner")
    }

    /// Runs `fut` to completion on this runtime, blocking the calling thread.
    ///
    /// # Panics
    ///
    /// As tokio's `Runtime::block_on`, when called where a tokio runtime is current; see
    /// [`check`](Self::check).
    pub fn block_on<F: Future>(&self, fut: F) -> F::Output {
        self.runtime().block_on(fut)
    }

    /// Whether the calling thread may block on this runtime: not when a tokio runtime is
    /// current on it (tokio's `Handle::try_current` finds one), where a nested `block_on`
    /// would panic. Threads of a runtime's blocking pool (`spawn_blocking`) have their
    /// runtime current too, and are refused as well: tokio does not tell them apart from its
    /// workers; there, `Handle::current().block_on(call)` runs the async client's call.
    ///
    /// # Errors
    ///
    /// [`TransportErrorKind::BlockingInAsync`], naming `endpoint` (the client's endpoint URL)
    /// and what to use instead.
    pub fn check(endpoint: &str) -> Result<(), crate::Error> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Ok(());
        }
        Err(crate::Error::Transport(TransportError::new(
            TransportErrorKind::BlockingInAsync,
            endpoint,
            "a blocking client cannot wait on a thread where a tokio runtime is current \
             (tokio's nested block_on would panic): in async code, .await the call of an async \
             client of its own (the connections of a blocking client are driven by its private \
             runtime); in tokio::task::spawn_blocking, run the async call with \
             tokio::runtime::Handle::current().block_on(..)",
            None,
        )))
    }

    /// [`block_on`](Self::block_on) for the one future type of every call's exchange: instantiated
    /// once here, not once per operation. Refused where a runtime is current ([`check`](Self::check)).
    pub(crate) fn run<T>(
        &self,
        endpoint: &str,
        exchange: std::pin::Pin<Box<dyn Future<Output = Result<T, crate::Error>> + Send>>,
    ) -> Result<T, crate::Error> {
        Self::check(endpoint)?;
        self.runtime().block_on(exchange)
    }
}
