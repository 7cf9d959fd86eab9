//! PostgreSQL's cancel keys: each connection's session has a process id (the
//! engine's pid for it) and gets a random secret (both sent in BackendKeyData
//! at startup); a CancelRequest, which arrives on a connection of its own, names
//! both, and stops that session's running statement.
//! A request with a wrong secret does nothing, and says nothing, as in PostgreSQL.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use pgwire::messages::startup::SecretKey;

use crate::engine::{StatementControl, StopReason};

/// The live connections' keys.
#[derive(Debug, Default)]
pub struct CancelKeys {
    sessions: Mutex<HashMap<i32, Entry>>,
}

#[derive(Debug)]
struct Entry {
    secret: i32,
    control: Weak<StatementControl>,
}

/// One connection's key, registered while it lives.
#[derive(Debug)]
pub struct CancelKey {
    pub pid: i32,
    pub secret: i32,
    keys: Arc<CancelKeys>,
}

impl CancelKeys {
    /// A secret for the connection whose session has `pid` and whose statements
    /// `control` stops.
    pub fn register(self: &Arc<Self>, pid: i32, control: &Arc<StatementControl>) -> CancelKey {
        let secret = random_secret();
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.insert(
                pid,
                Entry {
                    secret,
                    control: Arc::downgrade(control),
                },
            );
        }
        CancelKey {
            pid,
            secret,
            keys: self.clone(),
        }
    }

    /// Stops the statement of the connection `pid` if `secret` is its secret.
    /// Returns whether it did.
    pub fn cancel(&self, pid: i32, secret: &SecretKey) -> bool {
        let control = match self.sessions.lock() {
            Ok(sessions) => sessions
                .get(&pid)
                .filter(|entry| matches_secret(entry.secret, secret))
                .and_then(|entry| entry.control.upgrade()),
            Err(_) => None,
        };
        match control {
            Some(control) => {
                control.stop(StopReason::Cancel);
                true
            }
            None => false,
        }
    }
}

impl CancelKey {
    pub fn secret_key(&self) -> SecretKey {
        SecretKey::I32(self.secret)
    }
}

impl Drop for CancelKey {
    fn drop(&mut self) {
        if let Ok(mut sessions) = self.keys.sessions.lock() {
            sessions.remove(&self.pid);
        }
    }
}

/// Compares without stopping at the first differing byte.
fn matches_secret(expected: i32, given: &SecretKey) -> bool {
    let given: &[u8] = match given {
        SecretKey::I32(value) => &value.to_be_bytes(),
        SecretKey::Bytes(bytes) => bytes,
    };
    let expected = expected.to_be_bytes();
    given.len() == expected.len()
        && expected
            .iter()
            .zip(given)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

/// A secret no other client can guess: from the operating system's generator.
fn random_secret() -> i32 {
    let mut bytes = [0u8; 4];
    if let Err(error) = getrandom::fill(&mut bytes) {
        // Without it, cancel keys become guessable; the server still works.
        tracing::warn!(%error, "no random cancel key");
    }
    i32::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_secret_cancels() {
        let keys = Arc::new(CancelKeys::default());
        let control = Arc::new(StatementControl::default());
        let key = keys.register(7, &control);
        assert!(!keys.cancel(key.pid, &SecretKey::I32(key.secret.wrapping_add(1))));
        assert_eq!(control.reason(), None);
        assert!(!keys.cancel(key.pid + 1, &key.secret_key()));
        assert!(keys.cancel(key.pid, &key.secret_key()));
        assert_eq!(control.reason(), Some(StopReason::Cancel));
        let pid = key.pid;
        drop(key);
        assert!(!keys.cancel(pid, &SecretKey::I32(0)));
    }
}
