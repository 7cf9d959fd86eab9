//! TLS for both ports (rustls, with ring): the certificate and key from
//! `--tls-cert`/`--tls-key`, or one made at startup with `--tls-self-signed`.
//!
//! The PostgreSQL port answers SSLRequest with `S` and also takes PostgreSQL 17's
//! direct TLS (`sslnegotiation=direct`), which needs the ALPN protocol
//! `postgresql` (pgwire does both; this module gives it the acceptor). The HTTP
//! port serves HTTPS (HTTP/1.1) on the same certificate.

use std::path::Path;
use std::sync::Arc;

use ring::digest;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::{self, ServerConfig};

use crate::config::Config;

/// The acceptors of both ports.
#[derive(Clone)]
pub struct Tls {
    pub postgres: TlsAcceptor,
    pub http: TlsAcceptor,
}

impl Tls {
    /// The TLS `config` asks for, if any.
    pub fn from_config(config: &Config) -> Result<Option<Tls>, String> {
        let (chain, key) = match (&config.tls_cert, &config.tls_key) {
            (Some(cert), Some(key)) => (load_chain(cert)?, load_key(key)?),
            _ if config.tls_self_signed => self_signed()?,
            _ => return Ok(None),
        };
        Ok(Some(Tls {
            postgres: acceptor(chain.clone(), key.clone_key(), b"postgresql")?,
            http: acceptor(chain, key, b"http/1.1")?,
        }))
    }
}

fn acceptor(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    alpn: &[u8],
) -> Result<TlsAcceptor, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| format!("TLS certificate and key do not fit together: {e}"))?;
    config.alpn_protocols = vec![alpn.to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

fn load_chain(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let chain = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read the TLS certificate {}: {e}", path.display()))?;
    if chain.is_empty() {
        return Err(format!("no certificate in {}", path.display()));
    }
    Ok(chain)
}

fn load_key(path: &Path) -> Result<PrivateKeyDer<'static>, String> {
    PrivateKeyDer::from_pem_file(path)
        .map_err(|e| format!("cannot read the TLS key {}: {e}", path.display()))
}

/// A certificate for `localhost` and the loopback addresses, made now; its
/// SHA-256 fingerprint is logged so clients can pin it.
fn self_signed() -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
    let names = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    let certified = rcgen::generate_simple_self_signed(names)
        .map_err(|e| format!("could not make a self-signed certificate: {e}"))?;
    let der = certified.cert.der().clone();
    tracing::info!(
        sha256 = %fingerprint(&der),
        "TLS: self-signed certificate made for this run (localhost, 127.0.0.1, ::1)"
    );
    let key = PrivateKeyDer::try_from(certified.signing_key.serialize_der())
        .map_err(|e| format!("self-signed key: {e}"))?;
    Ok((vec![der], key))
}

/// `AA:BB:...`, as `openssl x509 -fingerprint -sha256` prints it.
pub fn fingerprint(der: &[u8]) -> String {
    digest::digest(&digest::SHA256, der)
        .as_ref()
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}
