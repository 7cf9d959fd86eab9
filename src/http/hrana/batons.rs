//! Batons: the tokens that name a Hrana stream across HTTP requests. A baton
//! is the stream's id and its sequence number, signed with a keyed MAC
//! (HMAC-SHA256 under a key drawn at startup): a client cannot forge one for
//! someone else's stream, and `streams` takes each one once.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::proto::HranaError;

const MAC_LEN: usize = 16;

/// The key batons are signed with, drawn from the OS at startup.
pub(super) struct BatonKey([u8; 32]);

impl BatonKey {
    pub(super) fn generate() -> BatonKey {
        let mut key = [0u8; 32];
        if let Err(error) = getrandom::fill(&mut key) {
            // Without the OS's randomness, a clock-derived key still differs per
            // run, but batons are then guessable: say so.
            tracing::warn!(%error, "no OS randomness for the Hrana baton key");
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            key[..16].copy_from_slice(&nanos.to_le_bytes());
        }
        BatonKey(key)
    }

    pub(super) fn sign(&self, id: u64, seq: u64) -> String {
        let mut bytes = Vec::with_capacity(16 + MAC_LEN);
        bytes.extend_from_slice(&id.to_be_bytes());
        bytes.extend_from_slice(&seq.to_be_bytes());
        let tag = self.mac(&bytes).finalize().into_bytes();
        bytes.extend_from_slice(&tag[..MAC_LEN]);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    pub(super) fn verify(&self, baton: &str) -> Result<(u64, u64), HranaError> {
        let invalid =
            || HranaError::new("BATON_INVALID", "the baton is not one this server issued");
        let bytes = URL_SAFE_NO_PAD
            .decode(baton.as_bytes())
            .map_err(|_| invalid())?;
        if bytes.len() != 16 + MAC_LEN {
            return Err(invalid());
        }
        let (body, tag) = bytes.split_at(16);
        self.mac(body)
            .verify_truncated_left(tag)
            .map_err(|_| invalid())?;
        let number = |range: std::ops::Range<usize>| {
            body.get(range)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(u64::from_be_bytes)
                .ok_or_else(invalid)
        };
        Ok((number(0..8)?, number(8..16)?))
    }

    fn mac(&self, body: &[u8]) -> Hmac<Sha256> {
        // HMAC takes keys of any length: this cannot fail.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        mac.update(body);
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batons_carry_their_stream_and_resist_forgery() {
        let key = BatonKey([7; 32]);
        let baton = key.sign(42, 3);
        assert_eq!(key.verify(&baton).ok(), Some((42, 3)));
        let mut bytes = URL_SAFE_NO_PAD.decode(&baton).unwrap();
        bytes[7] ^= 1;
        assert!(key.verify(&URL_SAFE_NO_PAD.encode(&bytes)).is_err());
        assert!(BatonKey([8; 32]).verify(&baton).is_err());
        assert!(key.verify("not a baton").is_err());
        assert!(key.verify("").is_err());
    }
}
