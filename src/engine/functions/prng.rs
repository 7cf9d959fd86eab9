//! PostgreSQL's pseudo-random number generator (`pg_prng`: xoroshiro128**,
//! seeded through splitmix64), followed step by step so that a session that
//! called `setseed(x)` reads PostgreSQL's own `random()` values for `x`.

/// A seeded generator's state (PostgreSQL's `pg_prng_state`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::engine) struct Seeded(u64, u64);

impl Seeded {
    /// `pg_prng_fseed`: the seed's 52 bits and sign, spread by splitmix64.
    pub(super) fn from_seed(seed: f64) -> Seeded {
        // Truncation toward zero, as C's double-to-int64 conversion does.
        let mut state = (((1u64 << 52) - 1) as f64 * seed) as i64 as u64;
        let s0 = splitmix64(&mut state);
        let s1 = splitmix64(&mut state);
        match (s0, s1) {
            (0, 0) => Seeded(0x5851_F42D_4C95_7F2D, 0x1405_7B7E_F767_814F),
            _ => Seeded(s0, s1),
        }
    }

    /// `pg_prng_double`: 52 random bits as a fraction of one.
    pub(super) fn next_double(&mut self) -> f64 {
        let bits = self.next();
        (bits >> 12) as f64 / (1u64 << 52) as f64
    }

    /// xoroshiro128**.
    fn next(&mut self) -> u64 {
        let Seeded(s0, s1) = *self;
        let sx = s1 ^ s0;
        let value = s0.wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        *self = Seeded(s0.rotate_left(24) ^ sx ^ (sx << 16), sx.rotate_left(37));
        value
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut value = *state;
    value = (value ^ (value >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    value = (value ^ (value >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    value ^ (value >> 31)
}
