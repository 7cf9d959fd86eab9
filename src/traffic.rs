//! Bytes received from and sent to clients (`litewire_network_bytes_total`),
//! counted where each front end reads and writes its socket, after TLS: the
//! protocol's bytes. One relaxed addition per read or write call, which is
//! one system call or more: nothing per byte.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::engine::{BackendKind, Metrics};

/// A client's stream whose reads and writes are counted.
pub struct Metered<S> {
    inner: S,
    metrics: Arc<Metrics>,
    frontend: BackendKind,
}

impl<S> Metered<S> {
    pub fn new(inner: S, metrics: Arc<Metrics>, frontend: BackendKind) -> Metered<S> {
        Metered {
            inner,
            metrics,
            frontend,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = read {
            let bytes = buf.filled().len().saturating_sub(before);
            this.metrics.received(this.frontend, bytes);
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(bytes)) = written {
            this.metrics.sent(this.frontend, bytes);
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(bytes)) = written {
            this.metrics.sent(this.frontend, bytes);
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
