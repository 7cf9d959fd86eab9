//! The sockets litewire listens on, TCP and Unix-domain, and the connections
//! they give.
//!
//! Besides its TCP address, the PostgreSQL port listens, as PostgreSQL does
//! (`unix_socket_directories`), on a Unix-domain socket in each directory of
//! `--pg-socket-dir`: the file `.s.PGSQL.<port>`, where libpq looks when a
//! client names a directory as its host, or no host at all. Beside it lies
//! PostgreSQL's lock file, `.s.PGSQL.<port>.lock`, whose first line is the
//! owner's pid: a second server, litewire or PostgreSQL, refuses the socket
//! while its owner lives, and the files of one that died are taken over. Both
//! files go when the listener does.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::{TcpListener, TcpStream, UnixListener, UnixStream};

use crate::engine::ClientAddress;

/// A socket that accepts connections.
pub enum Listener {
    Tcp(TcpListener),
    /// With the files that go when it does.
    Unix(UnixListener, SocketFiles),
}

/// One accepted connection.
pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

/// A connection between runtimes: the accepting one gives it up, the serving one
/// registers it (see `workers`).
pub enum Handover {
    Tcp(std::net::TcpStream),
    Unix(std::os::unix::net::UnixStream),
}

impl Listener {
    /// The next connection, and where it comes from.
    pub async fn accept(&self) -> io::Result<(Stream, ClientAddress)> {
        match self {
            Listener::Tcp(listener) => {
                let (stream, peer) = listener.accept().await?;
                Ok((Stream::Tcp(stream), ClientAddress::Tcp(peer)))
            }
            Listener::Unix(listener, _) => {
                let (stream, _) = listener.accept().await?;
                Ok((Stream::Unix(stream), ClientAddress::Local))
            }
        }
    }

    /// Where it listens: an address, or a socket file's path.
    pub fn describe(&self) -> String {
        match self {
            Listener::Tcp(listener) => listener
                .local_addr()
                .map_or_else(|error| error.to_string(), |address| address.to_string()),
            Listener::Unix(_, files) => files.socket.display().to_string(),
        }
    }

    /// Listens on `dir/.s.PGSQL.<port>` with the socket file's mode set to
    /// `permissions`, after taking the lock file beside it (see the module
    /// docs). `db` and `port` are written into the lock file as PostgreSQL
    /// writes its data directory and port there.
    pub fn unix(dir: &Path, port: u16, permissions: u32, db: &Path) -> io::Result<Listener> {
        let socket = dir.join(format!(".s.PGSQL.{port}"));
        let lock = dir.join(format!(".s.PGSQL.{port}.lock"));
        take_lock(&lock, &socket, db, port, dir)?;
        // From here on the files are ours, and dropping them removes them.
        let files = SocketFiles {
            socket: socket.clone(),
            lock,
        };
        // A socket file left by a server that died would make bind fail.
        match fs::remove_file(&socket) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
        let listener = UnixListener::bind(&socket)?;
        fs::set_permissions(&socket, fs::Permissions::from_mode(permissions))?;
        Ok(Listener::Unix(listener, files))
    }
}

/// A Unix-domain socket's file and its lock file, removed when dropped.
pub struct SocketFiles {
    socket: PathBuf,
    lock: PathBuf,
}

impl Drop for SocketFiles {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.socket);
        let _ = fs::remove_file(&self.lock);
    }
}

/// Creates `lock` holding this process's pid (PostgreSQL's layout: pid, data
/// directory, start time, port, socket directory), taking over a lock whose
/// owner is gone.
fn take_lock(lock: &Path, socket: &Path, db: &Path, port: u16, dir: &Path) -> io::Result<()> {
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let contents = format!(
        "{}\n{}\n{started}\n{port}\n{}\n",
        std::process::id(),
        db.display(),
        dir.display()
    );
    // Twice at most: once more after removing a stale lock.
    for _ in 0..2 {
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(lock)
        {
            Ok(mut file) => return file.write_all(contents.as_bytes()),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                let owner = fs::read_to_string(lock)
                    .ok()
                    .and_then(|text| text.lines().next()?.trim().parse::<u32>().ok());
                match owner {
                    Some(pid) if pid != std::process::id() && process_lives(pid) => {
                        return Err(io::Error::new(
                            io::ErrorKind::AddrInUse,
                            format!(
                                "lock file \"{}\" already exists: is another server (PID {pid}) \
                                 using socket file \"{}\"?",
                                lock.display(),
                                socket.display()
                            ),
                        ));
                    }
                    // Its owner is gone (or it is unreadable, as a crash mid-write
                    // leaves it): take it over.
                    _ => fs::remove_file(lock)?,
                }
            }
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AddrInUse,
        format!("could not take lock file \"{}\"", lock.display()),
    ))
}

/// Whether a process `pid` runs on this machine (its `/proc` entry).
fn process_lives(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

/// The most [`Stream::peek`] reads at once (a startup packet's head is 8 bytes).
const PEEK_MAX: usize = 64;

impl Stream {
    /// Reads into `buf` (at most [`PEEK_MAX`] bytes) without taking the bytes off the socket.
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(stream) => stream.peek(buf).await,
            Stream::Unix(stream) => loop {
                stream.readable().await?;
                let peeked = stream.try_io(Interest::READABLE, || {
                    let mut uninit = [MaybeUninit::new(0u8); PEEK_MAX];
                    let len = buf.len().min(PEEK_MAX);
                    let n = socket2::SockRef::from(stream).peek(&mut uninit[..len])?;
                    for (to, from) in buf.iter_mut().zip(&uninit[..n]) {
                        // SAFETY: every byte was initialized when `uninit` was made;
                        // `peek` only writes over them.
                        *to = unsafe { from.assume_init() };
                    }
                    Ok(n)
                });
                match peeked {
                    Err(error) if error.kind() == io::ErrorKind::WouldBlock => continue,
                    other => break other,
                }
            },
        }
    }

    /// Peeks until `buf` is full; `false`: the client hung up first.
    pub async fn peek_exact(&self, buf: &mut [u8]) -> io::Result<bool> {
        loop {
            match self.peek(buf).await? {
                0 => return Ok(false),
                n if n >= buf.len() => return Ok(true),
                // A part of it: wait for the rest.
                _ => tokio::time::sleep(std::time::Duration::from_millis(1)).await,
            }
        }
    }

    /// The accepting runtime gives the connection up (see `workers`).
    pub fn into_handover(self) -> io::Result<Handover> {
        match self {
            Stream::Tcp(stream) => stream.into_std().map(Handover::Tcp),
            Stream::Unix(stream) => stream.into_std().map(Handover::Unix),
        }
    }
}

impl Handover {
    /// The serving runtime registers the connection, from inside one of its tasks.
    pub fn register(self) -> io::Result<Stream> {
        match self {
            Handover::Tcp(stream) => TcpStream::from_std(stream).map(Stream::Tcp),
            Handover::Unix(stream) => UnixStream::from_std(stream).map(Stream::Unix),
        }
    }
}

impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Stream::Tcp(stream) => stream.as_raw_fd(),
            Stream::Unix(stream) => stream.as_raw_fd(),
        }
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_read(cx, buf),
            Stream::Unix(stream) => Pin::new(stream).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_write(cx, buf),
            Stream::Unix(stream) => Pin::new(stream).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
            Stream::Unix(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Stream::Tcp(stream) => stream.is_write_vectored(),
            Stream::Unix(stream) => stream.is_write_vectored(),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_flush(cx),
            Stream::Unix(stream) => Pin::new(stream).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(stream) => Pin::new(stream).poll_shutdown(cx),
            Stream::Unix(stream) => Pin::new(stream).poll_shutdown(cx),
        }
    }
}
