//! Checking the client's bytes before pgwire decodes them.
//!
//! pgwire's message decoder trusts what it is given: a Parse or Bind shorter than
//! its own fields panics inside it, and a `Q` whose length says 2 is read as SQL
//! from the bytes of the next message. So the socket is wrapped in [`Guarded`],
//! which hands the decoder only whole frames whose lengths and fields agree
//! ([`check`]); the first frame that does not becomes a read error carrying a
//! [`Violation`], which the connection answers with 08P01 before closing. A frame
//! longer than the limit is refused from its header alone: nothing of its claimed
//! size is ever allocated (bytes are read in small chunks).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Largest startup-phase packet (PostgreSQL's MAX_STARTUP_PACKET_LENGTH).
const MAX_STARTUP: usize = 10_000;
/// Largest message of the kinds that are always small (Sync, Execute, Describe...).
const MAX_SMALL: usize = 10_000;
/// How much is read from the socket at a time.
const READ_CHUNK: usize = 8 * 1024;

const SSL_REQUEST: i32 = 80_877_103;
const GSS_REQUEST: i32 = 80_877_104;
const CANCEL_REQUEST: i32 = 80_877_102;

/// Where the conversation is: which kind of frame comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Untagged packets: SSLRequest, GSSENCRequest, StartupMessage, CancelRequest.
    Startup,
    /// Tagged messages, after the StartupMessage.
    Messages,
    /// After a CancelRequest: nothing more may come.
    Ended,
}

/// A frame that breaks the protocol, with what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation(pub String);

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

fn violation(message: impl Into<String>) -> Violation {
    Violation(message.into())
}

/// Checks the frame at the start of `buf`: `Ok(Some(n))` when its `n` bytes are
/// all there and well formed (and `phase` moved past it), `Ok(None)` when more
/// bytes are needed, `Err` when it breaks the protocol, which is found out as soon
/// as its header shows it where possible. `max` bounds a message's length.
pub fn check(buf: &[u8], phase: &mut Phase, max: usize) -> Result<Option<usize>, Violation> {
    match phase {
        Phase::Startup => check_startup(buf, phase),
        Phase::Messages => check_message(buf, max),
        Phase::Ended => match buf.is_empty() {
            true => Ok(None),
            false => Err(violation("unexpected data after a cancel request")),
        },
    }
}

fn check_startup(buf: &[u8], phase: &mut Phase) -> Result<Option<usize>, Violation> {
    let Some(length) = read_i32(buf, 0) else {
        return Ok(None);
    };
    let length = usize::try_from(length).unwrap_or(0);
    if !(8..=MAX_STARTUP).contains(&length) {
        return Err(violation("invalid length of startup packet"));
    }
    if buf.len() < length {
        return Ok(None);
    }
    let code = read_i32(buf, 4).unwrap_or(0);
    let body = &buf[8..length];
    match code {
        SSL_REQUEST | GSS_REQUEST if body.is_empty() => {}
        CANCEL_REQUEST if body.len() == 8 => *phase = Phase::Ended,
        SSL_REQUEST | GSS_REQUEST | CANCEL_REQUEST => {
            return Err(violation("invalid length of startup packet"));
        }
        _ if code >> 16 == 3 => {
            check_startup_parameters(body)?;
            *phase = Phase::Messages;
        }
        _ => {
            return Err(violation(format!(
                "unsupported frontend protocol {}.{}: server supports 3.0 to 3.2",
                code >> 16,
                code & 0xffff
            )));
        }
    }
    Ok(Some(length))
}

/// `name\0value\0...\0`: pairs of strings, then an empty one.
fn check_startup_parameters(body: &[u8]) -> Result<(), Violation> {
    let Some((&0, strings)) = body.split_last() else {
        return Err(violation(
            "invalid startup packet layout: expected terminator as last byte",
        ));
    };
    if strings.is_empty() {
        return Ok(());
    }
    let Some((&0, strings)) = strings.split_last() else {
        return Err(violation(
            "invalid startup packet layout: expected terminator as last byte",
        ));
    };
    let parts: Vec<&[u8]> = strings.split(|&b| b == 0).collect();
    if !parts.len().is_multiple_of(2) || parts.iter().step_by(2).any(|name| name.is_empty()) {
        return Err(violation("invalid startup packet layout"));
    }
    Ok(())
}

fn check_message(buf: &[u8], max: usize) -> Result<Option<usize>, Violation> {
    let Some(&tag) = buf.first() else {
        return Ok(None);
    };
    let limit = match tag {
        b'Q' | b'P' | b'B' | b'd' | b'p' | b'f' => max,
        b'E' | b'D' | b'C' | b'S' | b'H' | b'X' | b'c' => MAX_SMALL.min(max),
        _ => {
            return Err(violation(format!(
                "invalid frontend message type {}",
                printable(tag)
            )));
        }
    };
    let Some(length) = read_i32(buf, 1) else {
        return Ok(None);
    };
    let Ok(length) = usize::try_from(length) else {
        return Err(violation(format!("invalid message length {length}")));
    };
    if length < 4 {
        return Err(violation(format!("invalid message length {length}")));
    }
    if length > limit {
        return Err(violation(format!(
            "message of type {} is {length} bytes, more than the limit of {limit}",
            printable(tag)
        )));
    }
    let total = length + 1;
    if buf.len() < total {
        return Ok(None);
    }
    let mut body = Fields(&buf[5..total]);
    let kind = match tag {
        b'Q' => "Query",
        b'P' => "Parse",
        b'B' => "Bind",
        b'E' => "Execute",
        b'D' => "Describe",
        b'C' => "Close",
        b'f' => "CopyFail",
        _ => "",
    };
    let well_formed = match tag {
        b'Q' | b'f' => body.cstring().is_some(),
        b'P' => body.parse(),
        b'B' => body.bind(),
        b'E' => body.cstring().is_some() && body.i32().is_some(),
        b'D' | b'C' => matches!(body.byte(), Some(b'S' | b'P')) && body.cstring().is_some(),
        b'S' | b'H' | b'X' | b'c' => true,
        // CopyData and the password family carry bytes of their own.
        _ => return Ok(Some(total)),
    };
    if !well_formed || !body.0.is_empty() {
        let name = match kind {
            "" => format!("message of type {}", printable(tag)),
            kind => format!("{kind} message"),
        };
        return Err(violation(format!(
            "invalid {name}: its length does not match its fields"
        )));
    }
    Ok(Some(total))
}

/// A cursor over a message body's fields; every read fails past the end.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn i16(&mut self) -> Option<i16> {
        self.take(2).map(|b| i16::from_be_bytes([b[0], b[1]]))
    }

    fn i32(&mut self) -> Option<i32> {
        self.take(4)
            .map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A NUL-terminated string, valid UTF-8 not required (pgwire reads it lossily).
    fn cstring(&mut self) -> Option<()> {
        let end = self.0.iter().position(|&b| b == 0)?;
        self.take(end + 1).map(drop)
    }

    /// A count, then that many fields of `size` bytes.
    fn array(&mut self, size: usize) -> Option<()> {
        let count = usize::try_from(self.i16()?).ok()?;
        self.take(count.checked_mul(size)?).map(drop)
    }

    /// Parse: name, query, parameter type OIDs.
    fn parse(&mut self) -> bool {
        (|| {
            self.cstring()?;
            self.cstring()?;
            self.array(4)
        })()
        .is_some()
    }

    /// Bind: portal, statement, parameter formats, parameter values (each a
    /// length, -1 for NULL, and its bytes), result formats.
    fn bind(&mut self) -> bool {
        (|| {
            self.cstring()?;
            self.cstring()?;
            self.array(2)?;
            let values = usize::try_from(self.i16()?).ok()?;
            for _ in 0..values {
                match self.i32()? {
                    -1 => {}
                    length => {
                        self.take(usize::try_from(length).ok()?)?;
                    }
                }
            }
            self.array(2)
        })()
        .is_some()
    }
}

fn read_i32(buf: &[u8], at: usize) -> Option<i32> {
    let bytes = buf.get(at..at + 4)?;
    Some(i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

fn printable(tag: u8) -> String {
    if tag.is_ascii_graphic() {
        format!("\"{}\"", char::from(tag))
    } else {
        format!("0x{tag:02x}")
    }
}

/// The client's socket, read through [`check`]: reads return only whole,
/// well-formed frames; writes go straight through.
pub struct Guarded<S> {
    inner: S,
    /// Bytes read from the socket and not yet handed out.
    buf: BytesMut,
    /// How many leading bytes of `buf` are checked frames.
    checked: usize,
    phase: Phase,
    max: usize,
    violation: Option<Violation>,
}

impl<S> Guarded<S> {
    pub fn new(inner: S, max_message: usize) -> Self {
        Self::with_read(inner, max_message, BytesMut::new())
    }

    /// As `new`, for a socket whose first bytes were already read (`read`, e.g.
    /// by TLS negotiation peeking for an SSLRequest): they are checked first.
    pub fn with_read(inner: S, max_message: usize, read: BytesMut) -> Self {
        let mut guarded = Guarded {
            inner,
            buf: read,
            checked: 0,
            phase: Phase::Startup,
            max: max_message,
            violation: None,
        };
        guarded.check_buffered();
        guarded
    }

    /// Checks the frames read so far, up to the first incomplete or bad one.
    fn check_buffered(&mut self) {
        while self.violation.is_none() {
            match check(&self.buf[self.checked..], &mut self.phase, self.max) {
                Ok(Some(length)) => self.checked += length,
                Ok(None) => break,
                Err(violation) => self.violation = Some(violation),
            }
        }
    }
}

/// The violation a read error carries, if it is one.
pub fn violation_of(error: &io::Error) -> Option<&Violation> {
    error.get_ref()?.downcast_ref::<Violation>()
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.checked > 0 {
                let n = this.checked.min(out.remaining());
                out.put_slice(&this.buf[..n]);
                this.buf.advance(n);
                this.checked -= n;
                return Poll::Ready(Ok(()));
            }
            if let Some(violation) = &this.violation {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    violation.clone(),
                )));
            }
            this.buf.reserve(READ_CHUNK);
            let spare = this.buf.spare_capacity_mut();
            let take = spare.len().min(READ_CHUNK);
            let mut read = ReadBuf::uninit(&mut spare[..take]);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) => {
                    let n = read.filled().len();
                    if n == 0 {
                        // End of stream; a partial frame left is the decoder's to report.
                        return Poll::Ready(Ok(()));
                    }
                    // SAFETY: `ReadBuf` says these `n` bytes of the spare capacity
                    // were initialized by the read.
                    unsafe { this.buf.set_len(this.buf.len() + n) };
                    this.check_buffered();
                }
                Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn message(tag: u8, body: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        out.extend_from_slice(&(body.len() as i32 + 4).to_be_bytes());
        out.extend_from_slice(body);
        out
    }

    fn checked(buf: &[u8]) -> Result<Option<usize>, Violation> {
        check(buf, &mut Phase::Messages, 1 << 20)
    }

    #[test]
    fn whole_messages_pass_and_partial_ones_wait() {
        let query = message(b'Q', b"SELECT 1\0");
        assert_eq!(checked(&query), Ok(Some(query.len())));
        assert_eq!(checked(&query[..7]), Ok(None));
        let parse = message(b'P', b"s\0SELECT $1\0\0\x01\0\0\0\x17");
        assert_eq!(checked(&parse), Ok(Some(parse.len())));
        let bind = message(b'B', b"\0s\0\0\0\0\x02\0\0\0\x011\xff\xff\xff\xff\0\0");
        assert_eq!(checked(&bind), Ok(Some(bind.len())));
        assert_eq!(checked(&message(b'S', b"")), Ok(Some(5)));
    }

    #[test]
    fn lengths_that_disagree_with_the_fields_are_violations() {
        // A Query whose length leaves no room for its text.
        assert!(checked(b"Q\0\0\0\x02SELECT 1\0").is_err());
        assert!(checked(&message(b'Q', b"SELECT 1")).is_err());
        // A Parse that ends inside its parameter types.
        assert!(checked(&message(b'P', b"s\0SELECT $1\0\0\x02\0\0\0\x17")).is_err());
        // A Bind that ends inside a value.
        assert!(checked(&message(b'B', b"\0s\0\0\0\0\x01\0\0\0\x09ab")).is_err());
        assert!(checked(&message(b'B', b"\0")).is_err());
        assert!(checked(&message(b'S', b"x")).is_err());
        assert!(checked(&message(b'D', b"X\0")).is_err());
        assert!(checked(b"F\0\0\0\x04").is_err());
    }

    #[test]
    fn oversized_messages_are_refused_from_the_header() {
        let header = [b'Q', 0x7f, 0xff, 0xff, 0xff];
        assert!(checked(&header).is_err());
        assert!(checked(&[b'S', 0, 0, 0x40, 0]).is_err());
    }

    #[test]
    fn startup_packets() {
        let mut phase = Phase::Startup;
        let ssl = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];
        assert_eq!(check(&ssl, &mut phase, 100), Ok(Some(8)));
        assert_eq!(phase, Phase::Startup);
        let mut startup = vec![0, 0, 0, 0, 0, 3, 0, 0];
        startup.extend_from_slice(b"user\0me\0\0");
        let len = startup.len() as i32;
        startup[..4].copy_from_slice(&len.to_be_bytes());
        assert_eq!(check(&startup, &mut phase, 100), Ok(Some(startup.len())));
        assert_eq!(phase, Phase::Messages);
        let mut phase = Phase::Startup;
        let mut odd = startup.clone();
        let at = odd.len() - 2;
        odd[at] = b'x';
        assert!(check(&odd, &mut phase, 100).is_err());
        assert!(check(&[0, 0, 0, 4, 0, 3, 0, 0], &mut Phase::Startup, 100).is_err());
        assert!(check(&[0, 0, 0, 8, 0, 2, 0, 0], &mut Phase::Startup, 100).is_err());
    }
}
