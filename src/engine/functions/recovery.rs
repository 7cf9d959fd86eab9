//! Whether the server is a standby: `pg_is_in_recovery()` is true on a
//! follower (`--read-only`), which serves what another server writes, as a
//! PostgreSQL standby does; false elsewhere.

use super::call::{Call, Out};
use super::definition::{Function, Volatility};

pub(super) const FUNCTIONS: &[Function] = &[Function::pg(
    "pg_is_in_recovery",
    &[],
    "bool",
    Volatility::Volatile,
    in_recovery,
)];

fn in_recovery(call: &Call, _: &[super::call::Arg]) -> Out {
    Out::Int(i64::from(call.context.server.follower))
}
