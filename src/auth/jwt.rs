//! Bearer tokens for HTTP: JWTs signed with Ed25519 (`alg: EdDSA`), as libsql's
//! sqld and Turso issue them, checked against the public key given with
//! `--jwt-key-file` (PEM `PUBLIC KEY`, or the raw 32 bytes in base64url).
//!
//! Claims read: `a` (`rw` or absent: read-write, `ro`: read-only) and `exp`
//! (seconds since the epoch; a token past it is refused). A token grants no
//! admin rights.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::signature::{ED25519, UnparsedPublicKey};
use serde::Deserialize;

use crate::engine::Role;

/// The DER prefix of an Ed25519 SubjectPublicKeyInfo; the key's 32 bytes follow.
const SPKI_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];

#[derive(Clone)]
pub struct JwtKey {
    key: [u8; 32],
}

impl std::fmt::Debug for JwtKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JwtKey(Ed25519)")
    }
}

#[derive(Deserialize)]
struct Header {
    alg: String,
}

#[derive(Deserialize)]
struct Claims {
    #[serde(default)]
    a: Option<String>,
    #[serde(default)]
    exp: Option<f64>,
}

impl JwtKey {
    pub fn load(path: &Path) -> Result<JwtKey, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the JWT key file {}: {e}", path.display()))?;
        JwtKey::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// A PEM `PUBLIC KEY` block, or the raw key in base64url (or base64).
    pub fn parse(text: &str) -> Result<JwtKey, String> {
        let text = text.trim();
        let key = if text.contains("-----BEGIN") {
            let body: String = text
                .lines()
                .filter(|line| !line.starts_with("-----"))
                .map(str::trim)
                .collect();
            let der = STANDARD
                .decode(body)
                .map_err(|_| "the PEM body is not base64".to_owned())?;
            der.strip_prefix(&SPKI_PREFIX[..])
                .map(<[u8]>::to_vec)
                .ok_or_else(|| "the PEM key is not an Ed25519 public key".to_owned())?
        } else {
            URL_SAFE_NO_PAD
                .decode(text.trim_end_matches('='))
                .or_else(|_| STANDARD.decode(text))
                .map_err(|_| "the key is neither PEM nor base64url".to_owned())?
        };
        let key = key
            .try_into()
            .map_err(|_| "an Ed25519 public key is 32 bytes".to_owned())?;
        Ok(JwtKey { key })
    }

    /// The role a valid token grants, or why it is refused.
    pub fn verify(&self, token: &str) -> Result<Role, String> {
        let mut parts = token.split('.');
        let (header, claims, signature) =
            match (parts.next(), parts.next(), parts.next(), parts.next()) {
                (Some(h), Some(c), Some(s), None) => (h, c, s),
                _ => return Err("malformed token".to_owned()),
            };
        let decode = |part: &str| {
            URL_SAFE_NO_PAD
                .decode(part)
                .map_err(|_| "malformed token".to_owned())
        };
        let header: Header =
            serde_json::from_slice(&decode(header)?).map_err(|_| "malformed token".to_owned())?;
        if header.alg != "EdDSA" {
            return Err(format!("unsupported token algorithm {}", header.alg));
        }
        let signed = &token[..token.len() - signature.len() - 1];
        UnparsedPublicKey::new(&ED25519, &self.key)
            .verify(signed.as_bytes(), &decode(signature)?)
            .map_err(|_| "invalid token signature".to_owned())?;
        let claims: Claims =
            serde_json::from_slice(&decode(claims)?).map_err(|_| "malformed token".to_owned())?;
        if let Some(exp) = claims.exp {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64());
            if now >= exp {
                return Err("token expired".to_owned());
            }
        }
        match claims.a.as_deref() {
            None | Some("rw") => Ok(Role::ReadWrite),
            Some("ro") => Ok(Role::ReadOnly),
            Some(other) => Err(format!("unknown access claim \"{other}\"")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{Ed25519KeyPair, KeyPair};

    fn sign(pair: &Ed25519KeyPair, claims: &str) -> String {
        let signed = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(r#"{"alg":"EdDSA","typ":"JWT"}"#),
            URL_SAFE_NO_PAD.encode(claims)
        );
        let signature = pair.sign(signed.as_bytes());
        format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature.as_ref()))
    }

    #[test]
    fn verifies_roles_expiry_and_signatures() {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
        let pair = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
        let public = pair.public_key().as_ref();
        let key = JwtKey::parse(&URL_SAFE_NO_PAD.encode(public)).unwrap();
        let mut der = SPKI_PREFIX.to_vec();
        der.extend_from_slice(public);
        let pem = format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
            STANDARD.encode(der)
        );
        assert_eq!(JwtKey::parse(&pem).unwrap().key, key.key);

        assert_eq!(
            key.verify(&sign(&pair, r#"{"a":"rw"}"#)),
            Ok(Role::ReadWrite)
        );
        assert_eq!(
            key.verify(&sign(&pair, r#"{"a":"ro"}"#)),
            Ok(Role::ReadOnly)
        );
        assert_eq!(key.verify(&sign(&pair, "{}")), Ok(Role::ReadWrite));
        let expired = sign(&pair, r#"{"a":"rw","exp":1000}"#);
        assert_eq!(key.verify(&expired), Err("token expired".to_owned()));
        let future = sign(&pair, r#"{"a":"ro","exp":99999999999}"#);
        assert_eq!(key.verify(&future), Ok(Role::ReadOnly));
        let other =
            Ed25519KeyPair::from_pkcs8(Ed25519KeyPair::generate_pkcs8(&rng).unwrap().as_ref())
                .unwrap();
        assert!(key.verify(&sign(&other, r#"{"a":"rw"}"#)).is_err());
        for bad in ["", "a.b", "a.b.c", "...", "a.b.c.d"] {
            assert!(key.verify(bad).is_err());
        }
    }
}
