//! The credential store both front ends check: the `--users` file, and the one
//! admin `LITEWIRE_PASSWORD` makes.
//!
//! One user per line, `name:role:verifier`; blank lines and lines starting with
//! `#` are skipped. The verifier is what PostgreSQL keeps in `pg_authid`
//! (`SCRAM-SHA-256$...`, or `md5<hex>` for old clients), never a password, so the
//! file can be copied from a PostgreSQL server or made by `litewire passwd`.

use std::collections::HashMap;
use std::path::Path;

use super::md5::Md5Verifier;
use super::scram::Verifier;
use crate::engine::Role;

/// What a user's password is checked against.
#[derive(Debug, Clone)]
pub enum Secret {
    Scram(Verifier),
    Md5(Md5Verifier),
}

#[derive(Debug, Clone)]
pub struct User {
    pub role: Role,
    pub secret: Secret,
}

/// Users by name.
#[derive(Debug, Clone, Default)]
pub struct Users {
    users: HashMap<String, User>,
}

impl Users {
    /// Reads a users file; errors name the line.
    pub fn load(path: &Path) -> Result<Users, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the users file {}: {e}", path.display()))?;
        Users::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Users, String> {
        let mut users = Users::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", number + 1);
            let mut fields = line.splitn(3, ':');
            let (name, role, verifier) = match (fields.next(), fields.next(), fields.next()) {
                (Some(name), Some(role), Some(verifier)) if !name.is_empty() => {
                    (name, role, verifier)
                }
                _ => return Err(at("expected name:role:verifier".to_owned())),
            };
            let role = role.parse::<Role>().map_err(at)?;
            let secret = if verifier.starts_with("md5") {
                Secret::Md5(Md5Verifier::parse(verifier).map_err(at)?)
            } else {
                Secret::Scram(Verifier::parse(verifier).map_err(at)?)
            };
            if users
                .users
                .insert(name.to_owned(), User { role, secret })
                .is_some()
            {
                return Err(at(format!("user \"{name}\" appears twice")));
            }
        }
        Ok(users)
    }

    /// Adds (or replaces) a user.
    pub fn insert(&mut self, name: &str, user: User) {
        self.users.insert(name.to_owned(), user);
    }

    pub fn get(&self, name: &str) -> Option<&User> {
        self.users.get(name)
    }

    pub fn is_empty(&self) -> bool {
        self.users.is_empty()
    }

    pub fn len(&self) -> usize {
        self.users.len()
    }
}

/// The line `litewire passwd` prints for a user.
pub fn line(name: &str, role: Role, verifier: &Verifier) -> String {
    format!("{name}:{}:{verifier}", role.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_users_and_names_bad_lines() {
        let verifier = Verifier::new("pw").unwrap();
        let text = format!(
            "# users\n\n{}\nbob:readonly:{}\n",
            line("ann", Role::Admin, &verifier),
            Md5Verifier::new("pw", "bob")
        );
        let users = Users::parse(&text).unwrap();
        assert_eq!(users.len(), 2);
        assert_eq!(users.get("ann").unwrap().role, Role::Admin);
        assert!(matches!(users.get("bob").unwrap().secret, Secret::Md5(_)));
        let err = Users::parse("ann:boss:x").unwrap_err();
        assert!(err.starts_with("line 1:"), "{err}");
        let err = Users::parse(&format!("ok:readwrite:{verifier}\nann:readwrite")).unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        assert!(Users::parse("ann:readwrite:SCRAM-SHA-256$x").is_err());
    }
}
