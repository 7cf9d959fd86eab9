//! `inet` and `cidr`: their input (the canonical text they are kept as),
//! their order (`litewire_inet_key`, which comparisons and sorts go by), the
//! containment operators `<<`, `>>` and `&&`, and PostgreSQL's functions of
//! them: `host`, `masklen`, `family`, `network`, `broadcast`, `netmask`,
//! `hostmask`, `abbrev`, `set_masklen`, `text`. The reading and printing are
//! `sql::inet`'s.

use super::call::{Arg, Call, Out, with_read};
use super::definition::Function;
use crate::error::SqlState;
use crate::sql::inet::{Inet, InetError};

pub(super) const FUNCTIONS: &[Function] = &[
    Function::immutable_helper("litewire_inet_in", &["text", "bool"], inet_in),
    Function::immutable_helper("litewire_inet_key", &["inet"], key),
    Function::immutable_helper("litewire_inet_text", &["inet"], text),
    Function::immutable_helper("litewire_inet_within", &["inet", "inet"], within),
    Function::immutable_helper("litewire_inet_overlaps", &["inet", "inet"], overlaps),
    Function::immutable("host", &["inet"], "text", host),
    Function::immutable("masklen", &["inet"], "int4", masklen),
    Function::immutable("family", &["inet"], "int4", family),
    Function::immutable("network", &["inet"], "cidr", network),
    Function::immutable("broadcast", &["inet"], "inet", broadcast),
    Function::immutable("netmask", &["inet"], "inet", netmask),
    Function::immutable("hostmask", &["inet"], "inet", hostmask),
    Function::immutable("abbrev", &["inet"], "text", abbrev),
    Function::immutable_helper("litewire_cidr_abbrev", &["cidr"], cidr_abbrev),
    Function::immutable("set_masklen", &["inet", "int4"], "inet", set_masklen),
];

/// An address argument (kept as text that reads as one); `Ok(None)` for NULL.
fn address(arg: &Arg) -> Result<Option<Inet>, Out> {
    let Some(text) = arg.text() else {
        return Ok(None);
    };
    match Inet::parse(&text, false) {
        Ok(value) => Ok(Some(value)),
        Err(error) => Err(input_error(&text, false, error)),
    }
}

fn input_error(text: &str, cidr: bool, error: InetError) -> Out {
    let ty = if cidr { "cidr" } else { "inet" };
    let message = match error {
        InetError::Syntax => format!("invalid input syntax for type {ty}: \"{text}\""),
        InetError::HostBits => format!("invalid cidr value: \"{text}\""),
    };
    Out::Fail(SqlState::INVALID_TEXT_REPRESENTATION, message)
}

/// Runs `body` on an address argument; NULL for NULL.
fn with(arg: &Arg, body: impl FnOnce(Inet) -> Out) -> Out {
    with_read(address(arg), body)
}

/// Text read as an `inet` (second argument false) or `cidr`, as its
/// canonical text.
fn inet_in(_: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    let cidr = super::json::truth(&args[1]);
    match Inet::parse(&text, cidr) {
        Ok(value) => Out::Text(value.format(cidr)),
        Err(error) => input_error(&text, cidr, error),
    }
}

fn key(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.key()))
}

/// `text(inet)`: the address with its mask, always.
fn text(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.format(true)))
}

fn pair(args: &[Arg], test: impl FnOnce(&Inet, &Inet) -> bool) -> Out {
    match (address(&args[0]), address(&args[1])) {
        (Ok(Some(a)), Ok(Some(b))) => Out::Int(i64::from(test(&a, &b))),
        (Err(out), _) | (_, Err(out)) => out,
        _ => Out::Null,
    }
}

/// `a << b` (and `b >> a`): `a` strictly within `b`'s network.
fn within(_: &Call, args: &[Arg]) -> Out {
    pair(args, |a, b| a.within(b, true))
}

fn overlaps(_: &Call, args: &[Arg]) -> Out {
    pair(args, Inet::overlaps)
}

fn host(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.address.to_string()))
}

fn masklen(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Int(i64::from(value.bits)))
}

fn family(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Int(value.family()))
}

fn network(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.network().format(true)))
}

fn broadcast(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.broadcast().format(false)))
}

fn netmask(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.mask(false).format(false)))
}

fn hostmask(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.mask(true).format(false)))
}

/// `abbrev(inet)`: as it prints.
fn abbrev(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| Out::Text(value.format(false)))
}

/// `abbrev(cidr)`: without the zero octets past its mask (`10.1.0.0/16` is
/// `10.1/16`).
fn cidr_abbrev(_: &Call, args: &[Arg]) -> Out {
    with(&args[0], |value| match value.address {
        std::net::IpAddr::V4(v4) => {
            let kept = usize::from(value.bits.div_ceil(8)).max(1);
            let octets: Vec<String> = v4.octets()[..kept].iter().map(u8::to_string).collect();
            Out::Text(format!("{}/{}", octets.join("."), value.bits))
        }
        _ => Out::Text(value.format(true)),
    })
}

fn set_masklen(_: &Call, args: &[Arg]) -> Out {
    let Some(bits) = args[1].int() else {
        return Out::Null;
    };
    with(&args[0], |value| {
        let max = if value.address.is_ipv4() { 32 } else { 128 };
        match u8::try_from(bits) {
            Ok(bits) if bits <= max => Out::Text(Inet { bits, ..value }.format(false)),
            _ => Out::Fail(
                SqlState::INVALID_PARAMETER_VALUE,
                format!("invalid mask length: {bits}"),
            ),
        }
    })
}
