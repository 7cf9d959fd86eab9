//! PostgreSQL's md5 password method, for old clients only (opt-in through
//! `--pg-auth-methods`): the server keeps `md5(password || user)` and the client
//! proves it knows that with a random 4-byte salt. Whoever reads the stored hash
//! can log in with it, which is why SCRAM is the default.

use super::scram::constant_time_eq;

/// `md5` followed by 32 hex digits, as `pg_authid` stores it.
#[derive(Clone, PartialEq, Eq)]
pub struct Md5Verifier {
    hex: String,
}

impl std::fmt::Debug for Md5Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Md5Verifier")
    }
}

impl Md5Verifier {
    pub fn new(password: &str, user: &str) -> Md5Verifier {
        Md5Verifier {
            hex: hex(&format!("{password}{user}")),
        }
    }

    pub fn parse(text: &str) -> Result<Md5Verifier, String> {
        match text.strip_prefix("md5") {
            Some(hex) if hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Ok(Md5Verifier {
                    hex: hex.to_ascii_lowercase(),
                })
            }
            _ => Err("not an md5 verifier (md5 and 32 hex digits)".to_owned()),
        }
    }

    /// Whether the client's answer (`md5` + md5(hex || salt)) is right.
    pub fn check_response(&self, salt: &[u8; 4], response: &str) -> bool {
        let mut input = self.hex.clone().into_bytes();
        input.extend_from_slice(salt);
        let expected = format!("md5{:x}", md5::compute(&input));
        constant_time_eq(expected.as_bytes(), response.as_bytes())
    }

    /// Whether `password` is this user's (HTTP Basic against an md5 verifier).
    pub fn matches(&self, password: &str, user: &str) -> bool {
        constant_time_eq(
            hex(&format!("{password}{user}")).as_bytes(),
            self.hex.as_bytes(),
        )
    }
}

impl std::fmt::Display for Md5Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "md5{}", self.hex)
    }
}

fn hex(text: &str) -> String {
    format!("{:x}", md5::compute(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_the_salted_response() {
        // PostgreSQL: CREATE ROLE bob PASSWORD 'pw' with password_encryption=md5.
        let verifier = Md5Verifier::new("pw", "bob");
        assert_eq!(
            verifier.to_string(),
            format!("md5{:x}", md5::compute("pwbob"))
        );
        let salt = [1, 2, 3, 4];
        let mut input = verifier.hex.clone().into_bytes();
        input.extend_from_slice(&salt);
        let response = format!("md5{:x}", md5::compute(&input));
        assert!(verifier.check_response(&salt, &response));
        assert!(!verifier.check_response(&[4, 3, 2, 1], &response));
        assert!(verifier.matches("pw", "bob"));
        assert!(Md5Verifier::parse(&verifier.to_string()).is_ok());
        assert!(Md5Verifier::parse("md5xyz").is_err());
    }
}
