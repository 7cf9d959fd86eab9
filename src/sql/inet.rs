//! `inet` and `cidr` as PostgreSQL reads, prints, orders and tests them. A
//! value is kept as its canonical text (`192.168.1.5` for a host,
//! `10.0.0.0/8` for a network; IPv6 compressed), so that it reads back
//! unchanged; its order is PostgreSQL's (`network_cmp`: family, then the
//! network, then the mask, then the whole address), which the text's is not
//! (`10.0.0.2` after `9.0.0.1`), so comparisons and sorts go by [`Inet::key`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// An address with its netmask's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inet {
    pub address: IpAddr,
    pub bits: u8,
}

/// Why text is not an `inet` or `cidr` (PostgreSQL's message follows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InetError {
    Syntax,
    /// A `cidr` with bits set right of its mask.
    HostBits,
}

impl Inet {
    /// `inet` input (`cidr`: a network, whose host bits must be zero, and
    /// which may leave out trailing octets, `10/8`).
    pub fn parse(text: &str, cidr: bool) -> Result<Inet, InetError> {
        let text = text.trim();
        let (address, bits) = match text.split_once('/') {
            Some((address, bits)) => (address, Some(bits)),
            None => (text, None),
        };
        let address = match address.parse::<IpAddr>() {
            Ok(address) => address,
            // `cidr` takes `10`, `10.1`, `10.1.2` for `10.0.0.0` and so on.
            Err(_) if cidr && !address.contains(':') => short_ipv4(address)?,
            Err(_) => return Err(InetError::Syntax),
        };
        let max = max_bits(address);
        let bits = match bits {
            Some(bits) => match bits.parse::<u8>() {
                Ok(b) if b <= max => b,
                _ => return Err(InetError::Syntax),
            },
            // A `cidr` without a mask: the classful default, or the octets given.
            None if cidr => match (address, text.matches('.').count()) {
                (IpAddr::V4(v4), dots) if dots < 3 => implied_ipv4_bits(v4, dots),
                _ => max,
            },
            None => max,
        };
        let value = Inet { address, bits };
        if cidr && value.network().address != address {
            return Err(InetError::HostBits);
        }
        Ok(value)
    }

    /// PostgreSQL's output: the mask shown unless a host's (`inet`), always
    /// for a network (`cidr`).
    pub fn format(&self, cidr: bool) -> String {
        match cidr || self.bits != max_bits(self.address) {
            true => format!("{}/{}", self.address, self.bits),
            false => self.address.to_string(),
        }
    }

    /// Bytes that sort as PostgreSQL orders values: family, the network part,
    /// the mask's length, the whole address (as hex text).
    pub fn key(&self) -> String {
        let family = match self.address {
            IpAddr::V4(_) => 4u8,
            IpAddr::V6(_) => 6u8,
        };
        let mut bytes = vec![family];
        bytes.extend(octets(self.network().address));
        bytes.push(self.bits);
        bytes.extend(octets(self.address));
        bytes.iter().map(|b| format!("{b:02X}")).collect()
    }

    /// The address with the bits right of the mask cleared.
    pub fn network(&self) -> Inet {
        self.with_host_bits(false)
    }

    /// The address with the bits right of the mask set (`broadcast`).
    pub fn broadcast(&self) -> Inet {
        self.with_host_bits(true)
    }

    fn with_host_bits(&self, set: bool) -> Inet {
        let mask = self.mask_bits();
        let address = match self.address {
            IpAddr::V4(v4) => {
                let n = u32::from(v4);
                let mask = mask as u32;
                IpAddr::V4(Ipv4Addr::from(if set { n | !mask } else { n & mask }))
            }
            IpAddr::V6(v6) => {
                let n = u128::from(v6);
                IpAddr::V6(Ipv6Addr::from(if set { n | !mask } else { n & mask }))
            }
        };
        Inet {
            address,
            bits: self.bits,
        }
    }

    /// The netmask as an address (`netmask`), or its complement (`hostmask`).
    pub fn mask(&self, host: bool) -> Inet {
        let mask = if host {
            !self.mask_bits()
        } else {
            self.mask_bits()
        };
        let address = match self.address {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::from(mask as u32)),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(mask)),
        };
        Inet {
            address,
            bits: max_bits(address),
        }
    }

    /// The mask as the low bits of a number as wide as the address.
    fn mask_bits(&self) -> u128 {
        let max = u32::from(max_bits(self.address));
        let bits = u32::from(self.bits);
        let all = if max == 32 {
            u128::from(u32::MAX)
        } else {
            u128::MAX
        };
        all & !all.checked_shr(bits).unwrap_or(0)
    }

    /// Whether `self` is within `other`'s network (`<<=`; `strict`: and
    /// narrower, `<<`).
    pub fn within(&self, other: &Inet, strict: bool) -> bool {
        let same_family = self.address.is_ipv4() == other.address.is_ipv4();
        let narrower = if strict {
            self.bits > other.bits
        } else {
            self.bits >= other.bits
        };
        same_family
            && narrower
            && Inet {
                address: self.address,
                bits: other.bits,
            }
            .network()
            .address
                == other.network().address
    }

    /// Whether either contains the other (`&&`).
    pub fn overlaps(&self, other: &Inet) -> bool {
        self.within(other, false) || other.within(self, false)
    }

    /// 4 or 6 (`family`).
    pub fn family(&self) -> i64 {
        if self.address.is_ipv4() { 4 } else { 6 }
    }
}

fn max_bits(address: IpAddr) -> u8 {
    if address.is_ipv4() { 32 } else { 128 }
}

fn octets(address: IpAddr) -> Vec<u8> {
    match address {
        IpAddr::V4(v4) => v4.octets().to_vec(),
        IpAddr::V6(v6) => v6.octets().to_vec(),
    }
}

/// `10`, `10.1`, `10.1.2`: an IPv4 network with its trailing octets left out.
fn short_ipv4(text: &str) -> Result<IpAddr, InetError> {
    let parts: Vec<u8> = text
        .split('.')
        .map(|p| p.parse::<u8>().map_err(|_| InetError::Syntax))
        .collect::<Result<_, _>>()?;
    if parts.is_empty() || parts.len() > 3 {
        return Err(InetError::Syntax);
    }
    let mut octets = [0u8; 4];
    octets[..parts.len()].copy_from_slice(&parts);
    Ok(IpAddr::V4(Ipv4Addr::from(octets)))
}

/// The mask a `cidr` written without one has: its class's, widened to the
/// octets written (PostgreSQL's `inet_cidr_pton_ipv4`).
fn implied_ipv4_bits(address: Ipv4Addr, dots: usize) -> u8 {
    let first = address.octets()[0];
    let class = match first {
        240.. => 32,
        224.. => 8,
        192.. => 24,
        128.. => 16,
        _ => 8,
    };
    let bits = class.max(8 * (dots as u8 + 1));
    if bits == 8 && first == 224 { 4 } else { bits }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inet(text: &str) -> Inet {
        Inet::parse(text, false).expect(text)
    }

    #[test]
    fn values_read_and_print_as_postgres() {
        assert_eq!(inet("192.168.1.5/32").format(false), "192.168.1.5");
        assert_eq!(inet("192.168.1.5/24").format(false), "192.168.1.5/24");
        assert_eq!(inet("::1").format(false), "::1");
        assert_eq!(inet("2001:DB8::1/64").format(false), "2001:db8::1/64");
        assert_eq!(
            Inet::parse("10.0.0.0/8", true).map(|c| c.format(true)),
            Ok("10.0.0.0/8".into())
        );
        assert_eq!(
            Inet::parse("192.168.1.5/24", true),
            Err(InetError::HostBits)
        );
        assert_eq!(
            Inet::parse("192.168.1.0/24", true).map(|c| c.format(true)),
            Ok("192.168.1.0/24".into())
        );
        for (given, shown) in [
            ("10", "10.0.0.0/8"),
            ("10.1", "10.1.0.0/16"),
            ("192.168", "192.168.0.0/24"),
            ("10.0.0.0", "10.0.0.0/32"),
        ] {
            assert_eq!(
                Inet::parse(given, true).map(|c| c.format(true)),
                Ok(shown.into())
            );
        }
        assert_eq!(Inet::parse("1.2.3.4.5", false), Err(InetError::Syntax));
        assert_eq!(Inet::parse("1.2.3.4/33", false), Err(InetError::Syntax));
    }

    #[test]
    fn order_and_containment_are_postgres() {
        assert!(inet("9.0.0.1").key() < inet("10.0.0.2").key());
        assert!(inet("10.0.0.0/8").key() < inet("10.0.0.0/16").key());
        assert!(inet("10.1.0.0/16").key() > inet("10.0.0.5").key());
        assert!(inet("255.255.255.255").key() < inet("::1").key());
        assert!(inet("192.168.1.5").within(&inet("192.168.1.0/24"), true));
        assert!(!inet("192.168.1.0/24").within(&inet("192.168.1.0/24"), true));
        assert!(inet("192.168.1.0/24").within(&inet("192.168.1.0/24"), false));
        assert_eq!(
            inet("192.168.1.5/24").broadcast().format(false),
            "192.168.1.255/24"
        );
        assert_eq!(
            inet("192.168.1.5/24").network().format(true),
            "192.168.1.0/24"
        );
        assert_eq!(
            inet("192.168.1.5/24").mask(false).format(false),
            "255.255.255.0"
        );
        assert_eq!(inet("192.168.1.5/24").mask(true).format(false), "0.0.0.255");
    }
}
