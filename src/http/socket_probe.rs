//! Noticing that an HTTP client hung up while its request's statements run:
//! [`SocketProbe`] looks at the connection's socket without reading from it, so
//! a statement whose client is gone is stopped instead of running on for no one.

use std::os::fd::AsRawFd;

use crate::engine::ClientGone;

/// Whether the client of a connection hung up, seen from its socket without
/// reading from it: a read that would block means it is still there.
pub(super) struct SocketProbe {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

impl SocketProbe {
    pub(super) fn of(socket: &impl AsRawFd) -> SocketProbe {
        #[cfg(unix)]
        {
            SocketProbe {
                fd: socket.as_raw_fd(),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = socket;
            SocketProbe {}
        }
    }
}

impl ClientGone for SocketProbe {
    fn gone(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::fd::FromRawFd;
            // SAFETY: the descriptor is the socket of the connection whose request
            // is being served, open until that request ends (the probe is only
            // asked while one of its statements runs); `ManuallyDrop` leaves it open.
            let socket =
                std::mem::ManuallyDrop::new(unsafe { std::net::TcpStream::from_raw_fd(self.fd) });
            // The socket is non-blocking (tokio's): no data yet is WouldBlock.
            match socket.peek(&mut [0u8; 1]) {
                Ok(0) => true,
                Ok(_) => false,
                Err(error) => error.kind() != std::io::ErrorKind::WouldBlock,
            }
        }
        #[cfg(not(unix))]
        {
            false
        }
    }
}
