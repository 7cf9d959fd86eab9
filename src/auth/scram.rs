//! SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL speaks it: verifiers in the
//! format `pg_authid` stores, and the server side of the exchange.
//!
//! A verifier keeps only `StoredKey` and `ServerKey`: whoever reads the users file
//! learns neither the password nor enough to log in (the client proof needs
//! `ClientKey`, which only the password gives). The same verifier checks a
//! password given in full (HTTP Basic) by deriving `StoredKey` from it.
//!
//! Channel binding (`SCRAM-SHA-256-PLUS`) is not offered; clients asking for it
//! fail the exchange, as they would with a PostgreSQL server without TLS.

use std::num::NonZeroU32;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use ring::{digest, hmac, pbkdf2, rand};

/// PostgreSQL's default (`scram_iterations`).
pub const DEFAULT_ITERATIONS: NonZeroU32 = NonZeroU32::new(4096).expect("non-zero");
const SALT_LEN: usize = 16;
const NONCE_LEN: usize = 18;
const KEY_LEN: usize = 32;

/// What a server keeps of a password: `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`.
#[derive(Clone, PartialEq, Eq)]
pub struct Verifier {
    iterations: NonZeroU32,
    salt: Vec<u8>,
    stored_key: [u8; KEY_LEN],
    server_key: [u8; KEY_LEN],
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Verifier(SCRAM-SHA-256)")
    }
}

impl Verifier {
    /// A verifier for `password`, with a random salt.
    pub fn new(password: &str) -> Result<Verifier, String> {
        let mut salt = [0u8; SALT_LEN];
        rand::SecureRandom::fill(&rand::SystemRandom::new(), &mut salt)
            .map_err(|_| "the system's random number generator failed".to_owned())?;
        Ok(Verifier::derive(password, &salt, DEFAULT_ITERATIONS))
    }

    /// The verifier `password` gives with this salt and iteration count.
    fn derive(password: &str, salt: &[u8], iterations: NonZeroU32) -> Verifier {
        let salted = salted_password(password, salt, iterations);
        let client_key = hmac_sha256(&salted, b"Client Key");
        Verifier {
            iterations,
            salt: salt.to_vec(),
            stored_key: sha256(&client_key),
            server_key: hmac_sha256(&salted, b"Server Key"),
        }
    }

    /// A verifier no password matches, with a salt that depends only on `user`
    /// and `secret`: an unknown user's exchange looks like a known one's (same
    /// salt every time), as PostgreSQL's mock authentication does.
    pub fn mock(user: &str, secret: &[u8]) -> Verifier {
        let salt = hmac_sha256(secret, user.as_bytes());
        Verifier {
            iterations: DEFAULT_ITERATIONS,
            salt: salt[..SALT_LEN].to_vec(),
            stored_key: hmac_sha256(secret, b"no stored key"),
            server_key: hmac_sha256(secret, b"no server key"),
        }
    }

    /// Parses PostgreSQL's text form.
    pub fn parse(text: &str) -> Result<Verifier, String> {
        let bad = || {
            "not a SCRAM-SHA-256 verifier (SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>)".to_owned()
        };
        let rest = text.strip_prefix("SCRAM-SHA-256$").ok_or_else(bad)?;
        let (params, keys) = rest.split_once('$').ok_or_else(bad)?;
        let (iterations, salt) = params.split_once(':').ok_or_else(bad)?;
        let (stored, server) = keys.split_once(':').ok_or_else(bad)?;
        let iterations = iterations
            .parse::<NonZeroU32>()
            .map_err(|_| "the iteration count is not a positive number".to_owned())?;
        let salt = STANDARD
            .decode(salt)
            .map_err(|_| "the salt is not base64".to_owned())?;
        let key = |text: &str| -> Result<[u8; KEY_LEN], String> {
            STANDARD
                .decode(text)
                .ok()
                .and_then(|bytes| bytes.try_into().ok())
                .ok_or_else(|| "a key is not 32 bytes of base64".to_owned())
        };
        Ok(Verifier {
            iterations,
            salt,
            stored_key: key(stored)?,
            server_key: key(server)?,
        })
    }

    /// Whether `password` is the one this verifier was made from.
    pub fn matches(&self, password: &str) -> bool {
        let candidate = Verifier::derive(password, &self.salt, self.iterations);
        constant_time_eq(&candidate.stored_key, &self.stored_key)
    }
}

impl std::fmt::Display for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SCRAM-SHA-256${}:{}${}:{}",
            self.iterations,
            STANDARD.encode(&self.salt),
            STANDARD.encode(self.stored_key),
            STANDARD.encode(self.server_key)
        )
    }
}

/// Why an exchange failed: the client sees only "password authentication
/// failed", whichever it was.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// The client's message does not follow the protocol.
    Malformed(&'static str),
    /// The proof does not match (wrong password, or unknown user).
    WrongProof,
}

/// The server's side between its first message and the client's last.
pub struct Exchange {
    verifier: Verifier,
    /// `client-first-message-bare`, `server-first-message`: half the AuthMessage.
    client_first_bare: String,
    server_first: String,
    nonce: String,
    gs2_header: String,
}

impl Exchange {
    /// Answers the client's first message (the SASLInitialResponse's data) with
    /// the server's first message.
    pub fn start(verifier: Verifier, client_first: &[u8]) -> Result<(Exchange, String), Failure> {
        let client_first =
            std::str::from_utf8(client_first).map_err(|_| Failure::Malformed("not UTF-8"))?;
        // gs2-header: channel binding flag, optional authzid, then the bare message.
        let mut parts = client_first.splitn(3, ',');
        let (flag, authzid, bare) = match (parts.next(), parts.next(), parts.next()) {
            (Some(flag), Some(authzid), Some(bare)) => (flag, authzid, bare),
            _ => return Err(Failure::Malformed("no GS2 header")),
        };
        match flag {
            "n" | "y" => {}
            _ if flag.starts_with("p=") => {
                return Err(Failure::Malformed("channel binding is not supported"));
            }
            _ => return Err(Failure::Malformed("bad channel binding flag")),
        }
        // PostgreSQL ignores the SCRAM user name (the startup message names the
        // user); the nonce is what matters.
        let client_nonce = bare
            .split(',')
            .find_map(|attribute| attribute.strip_prefix("r="))
            .filter(|nonce| {
                !nonce.is_empty() && nonce.chars().all(|c| c.is_ascii_graphic() && c != ',')
            })
            .ok_or(Failure::Malformed("no client nonce"))?;
        if bare.starts_with("m=") {
            return Err(Failure::Malformed("SCRAM extensions are not supported"));
        }
        let mut server_nonce = [0u8; NONCE_LEN];
        rand::SecureRandom::fill(&rand::SystemRandom::new(), &mut server_nonce)
            .map_err(|_| Failure::Malformed("no randomness"))?;
        let nonce = format!("{client_nonce}{}", STANDARD.encode(server_nonce));
        let server_first = format!(
            "r={nonce},s={},i={}",
            STANDARD.encode(&verifier.salt),
            verifier.iterations
        );
        let exchange = Exchange {
            verifier,
            client_first_bare: bare.to_owned(),
            server_first: server_first.clone(),
            nonce,
            gs2_header: format!("{flag},{authzid},"),
        };
        Ok((exchange, server_first))
    }

    /// Checks the client's final message (proof); on success answers with the
    /// server's final message (its signature, which proves it knew the verifier).
    pub fn finish(self, client_final: &[u8]) -> Result<String, Failure> {
        let client_final =
            std::str::from_utf8(client_final).map_err(|_| Failure::Malformed("not UTF-8"))?;
        let (without_proof, proof) = client_final
            .rsplit_once(",p=")
            .ok_or(Failure::Malformed("no proof"))?;
        let mut binding = None;
        let mut nonce = None;
        for attribute in without_proof.split(',') {
            if let Some(value) = attribute.strip_prefix("c=") {
                binding = Some(value);
            } else if let Some(value) = attribute.strip_prefix("r=") {
                nonce = Some(value);
            }
        }
        let binding = STANDARD
            .decode(binding.ok_or(Failure::Malformed("no channel binding"))?)
            .map_err(|_| Failure::Malformed("channel binding is not base64"))?;
        if binding != self.gs2_header.as_bytes() {
            return Err(Failure::Malformed("channel binding does not match"));
        }
        if nonce != Some(self.nonce.as_str()) {
            return Err(Failure::Malformed("nonce does not match"));
        }
        let proof: [u8; KEY_LEN] = STANDARD
            .decode(proof)
            .ok()
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or(Failure::Malformed("the proof is not 32 bytes of base64"))?;
        let auth_message = format!(
            "{},{},{without_proof}",
            self.client_first_bare, self.server_first
        );
        let client_signature = hmac_sha256(&self.verifier.stored_key, auth_message.as_bytes());
        let mut client_key = [0u8; KEY_LEN];
        for (key, (p, s)) in client_key
            .iter_mut()
            .zip(proof.iter().zip(client_signature.iter()))
        {
            *key = p ^ s;
        }
        if !constant_time_eq(&sha256(&client_key), &self.verifier.stored_key) {
            return Err(Failure::WrongProof);
        }
        let server_signature = hmac_sha256(&self.verifier.server_key, auth_message.as_bytes());
        Ok(format!("v={}", STANDARD.encode(server_signature)))
    }
}

/// `Hi(Normalize(password), salt, i)`. PostgreSQL applies SASLprep and, when the
/// password is not valid for it, uses the bytes as they are; so does this.
fn salted_password(password: &str, salt: &[u8], iterations: NonZeroU32) -> [u8; KEY_LEN] {
    let normalized = stringprep::saslprep(password)
        .map(|p| p.into_owned())
        .unwrap_or_else(|_| password.to_owned());
    let mut out = [0u8; KEY_LEN];
    pbkdf2::derive(
        pbkdf2::PBKDF2_HMAC_SHA256,
        iterations,
        salt,
        normalized.as_bytes(),
        &mut out,
    );
    out
}

fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; KEY_LEN] {
    let key = hmac::Key::new(hmac::HMAC_SHA256, key);
    let mut out = [0u8; KEY_LEN];
    out.copy_from_slice(hmac::sign(&key, message).as_ref());
    out
}

pub(super) fn sha256(data: &[u8]) -> [u8; KEY_LEN] {
    let mut out = [0u8; KEY_LEN];
    out.copy_from_slice(digest::digest(&digest::SHA256, data).as_ref());
    out
}

/// Compares without an early exit, so timing says nothing of where they differ.
pub(super) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The client side, as RFC 5802 describes it, to run the server against.
    fn client_final(password: &str, client_first_bare: &str, server_first: &str) -> String {
        let mut salt = None;
        let mut iterations = None;
        let mut nonce = None;
        for attribute in server_first.split(',') {
            match attribute.split_at(2) {
                ("s=", value) => salt = STANDARD.decode(value).ok(),
                ("i=", value) => iterations = value.parse::<NonZeroU32>().ok(),
                ("r=", value) => nonce = Some(value.to_owned()),
                _ => {}
            }
        }
        let (salt, iterations, nonce) = (salt.unwrap(), iterations.unwrap(), nonce.unwrap());
        let salted = salted_password(password, &salt, iterations);
        let client_key = hmac_sha256(&salted, b"Client Key");
        let without_proof = format!("c=biws,r={nonce}");
        let auth_message = format!("{client_first_bare},{server_first},{without_proof}");
        let signature = hmac_sha256(&sha256(&client_key), auth_message.as_bytes());
        let proof: Vec<u8> = client_key
            .iter()
            .zip(signature)
            .map(|(k, s)| k ^ s)
            .collect();
        format!("{without_proof},p={}", STANDARD.encode(proof))
    }

    fn exchange(verifier: &Verifier, password: &str) -> Result<String, Failure> {
        let bare = "n=,r=rOprNGfwEbeRWgbNEkqO";
        let (exchange, server_first) =
            Exchange::start(verifier.clone(), format!("n,,{bare}").as_bytes())?;
        exchange.finish(client_final(password, bare, &server_first).as_bytes())
    }

    #[test]
    fn verifier_round_trips_through_text() {
        let verifier = Verifier::new("secret").unwrap();
        let text = verifier.to_string();
        assert!(text.starts_with("SCRAM-SHA-256$4096:"));
        assert_eq!(Verifier::parse(&text).unwrap(), verifier);
        assert!(verifier.matches("secret"));
        assert!(!verifier.matches("Secret"));
    }

    #[test]
    fn rfc_7677_example() {
        // RFC 7677, section 3: user "user", password "pencil".
        let salt = STANDARD.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
        let verifier = Verifier::derive("pencil", &salt, DEFAULT_ITERATIONS);
        let nonce = "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
        let exchange = Exchange {
            verifier,
            client_first_bare: "n=user,r=rOprNGfwEbeRWgbNEkqO".to_owned(),
            server_first: format!("r={nonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"),
            nonce: nonce.to_owned(),
            gs2_header: "n,,".to_owned(),
        };
        let client_final =
            format!("c=biws,r={nonce},p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
        assert_eq!(
            exchange.finish(client_final.as_bytes()).unwrap(),
            "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="
        );
    }

    #[test]
    fn exchange_accepts_the_password_and_refuses_others() {
        let verifier = Verifier::new("pencil").unwrap();
        let server_final = exchange(&verifier, "pencil").unwrap();
        assert!(server_final.starts_with("v="));
        assert_eq!(exchange(&verifier, "crayon"), Err(Failure::WrongProof));
        let mock = Verifier::mock("nobody", b"secret");
        assert_eq!(exchange(&mock, "pencil"), Err(Failure::WrongProof));
        assert_eq!(mock, Verifier::mock("nobody", b"secret"));
    }

    #[test]
    fn malformed_messages_fail_without_panicking() {
        let verifier = Verifier::new("pencil").unwrap();
        for first in [
            "",
            "n",
            "n,,",
            "p=tls-server-end-point,,n=,r=abc",
            "x,,n=,r=a",
            "n,,n=,r=",
        ] {
            assert!(
                Exchange::start(verifier.clone(), first.as_bytes()).is_err(),
                "{first}"
            );
        }
        let (exchange, _) = Exchange::start(verifier, b"n,,n=,r=abc").unwrap();
        assert!(exchange.finish(b"c=biws,r=abc,p=AAAA").is_err());
    }
}
