//! Who is calling, for every HTTP route but `/health` and `/ready` (left open
//! for probes): `Authorization: Basic` (a user of the store, checked against its
//! SCRAM verifier) or `Authorization: Bearer <JWT>` (`--jwt-key-file`). Without
//! credentials, or with wrong ones, the answer is 401 with `WWW-Authenticate` and
//! a JSON error. In trust mode every caller is a `readwrite` user.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;

use crate::auth::{self, Auth};
use crate::engine::{BackendKind, DEFAULT_NAME, Engine, Role, Session, SessionIdentity, Settings};

/// The caller a request runs as.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: Arc<str>,
    pub role: Role,
}

impl Caller {
    /// Every caller when no credentials are configured (trust).
    pub fn trusted() -> Caller {
        Caller {
            user: DEFAULT_NAME.clone(),
            role: Role::ReadWrite,
        }
    }

    /// A new engine session running as this caller, for `kind` of front end.
    pub fn session(&self, engine: &Arc<Engine>, kind: BackendKind) -> Session {
        let identity = SessionIdentity {
            user: self.user.clone(),
            role: self.role,
            ..SessionIdentity::default()
        };
        let session = engine.session_for(identity, Settings::default());
        session.serves(kind);
        session
    }
}

/// The paths answered without credentials.
const OPEN_PATHS: &[&str] = &["/health", "/ready"];

/// The middleware, when credentials are configured: puts the [`Caller`] in the
/// request, or answers 401. (In trust mode the router adds [`Caller::trusted`]
/// to every request instead, and this layer is not there.)
pub async fn authenticate(
    State(auth): State<Arc<Auth>>,
    mut request: Request,
    next: Next,
) -> Response {
    if OPEN_PATHS.contains(&request.uri().path()) {
        return next.run(request).await;
    }
    let presented = request.headers().get(header::AUTHORIZATION);
    let caller = match identify(&auth, presented) {
        Ok(caller) => caller,
        Err(message) => {
            // A request without credentials is asked for them, not refused.
            if presented.is_some() {
                auth.count_failure();
            }
            return unauthorized(&auth, &message);
        }
    };
    request.extensions_mut().insert(caller);
    next.run(request).await
}

fn identify(auth: &Auth, header: Option<&HeaderValue>) -> Result<Caller, String> {
    let header = header
        .ok_or("authentication required")?
        .to_str()
        .map_err(|_| "malformed Authorization header")?;
    let (scheme, credentials) = header
        .split_once(' ')
        .ok_or("malformed Authorization header")?;
    let credentials = credentials.trim();
    if scheme.eq_ignore_ascii_case("basic") {
        let decoded = STANDARD
            .decode(credentials)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or("malformed Basic credentials")?;
        let (user, password) = decoded
            .split_once(':')
            .ok_or("malformed Basic credentials")?;
        match auth.check_password(user, password) {
            Some(role) => Ok(Caller {
                user: Arc::from(user),
                role,
            }),
            None => Err(auth::failed(user)),
        }
    } else if scheme.eq_ignore_ascii_case("bearer") {
        let role = auth.check_token(credentials)?;
        Ok(Caller {
            user: Arc::from("token"),
            role,
        })
    } else {
        Err(format!("unsupported authorization scheme {scheme}"))
    }
}

fn unauthorized(auth: &Auth, message: &str) -> Response {
    let mut response = (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({ "error": message })),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.append(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Basic realm=\"litewire\", charset=\"UTF-8\""),
    );
    if auth.tokens() {
        headers.append(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"litewire\""),
        );
    }
    response
}
