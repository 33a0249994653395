//! Blocking use of generated clients (feature `blocking`), as `reqwest::blocking` wraps reqwest's async
//! client: a generated `…BlockingClient` owns a [`BlockingRuntime`] and drives the async client on it.

use std::future::Future;
use std::sync::Arc;

/// A single-threaded tokio runtime shared by the clones of one blocking client.
///
/// Calls must not be made from inside an async runtime (tokio panics on nested `block_on`); use the
/// async client there.
#[derive(Debug, Clone)]
pub struct BlockingRuntime {
    rt: Arc<tokio::runtime::Runtime>,
}

impl BlockingRuntime {
    /// A new current-thread runtime with I/O and timers enabled.
    ///
    /// # Errors
    ///
    /// The I/O error if the OS refuses the runtime's resources (an epoll instance, an eventfd).
    pub fn new() -> std::io::Result<Self> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        Ok(BlockingRuntime { rt: Arc::new(rt) })
    }

    /// Runs `fut` to completion on this runtime, blocking the calling thread.
    pub fn block_on<F: Future>(&self, fut: F) -> F::Output {
        self.rt.block_on(fut)
    }

    /// [`block_on`](Self::block_on) for the one future type of every call's exchange: instantiated
    /// once here, not once per operation.
    pub(crate) fn run(
        &self,
        exchange: std::pin::Pin<
            Box<dyn Future<Output = Result<crate::transport::HttpResponse, crate::Error>> + Send>,
        >,
    ) -> Result<crate::transport::HttpResponse, crate::Error> {
        self.rt.block_on(exchange)
    }

    /// [`block_on`](Self::block_on) for a boxed `()` future, which writes its result where the
    /// caller reads it: one instantiation for every other future a call may wait on.
    pub(crate) fn run_local(&self, fut: std::pin::Pin<Box<dyn Future<Output = ()> + '_>>) {
        self.rt.block_on(fut);
    }
}
