//! `pg_timezone_names` and `pg_timezone_abbrevs`: the zones the IANA rules
//! compiled into litewire know, each with its abbreviation, offset and
//! daylight-saving state when the catalog is made, and PostgreSQL's default
//! abbreviations.

use std::fmt::Write as _;

use crate::sql::datetime::USECS_PER_SEC;
use crate::sql::interval::Interval;
use crate::sql::quote::literal;
use crate::sql::time_zone::{Zone, abbreviations, zone_names};

/// Both relations' rows, as one statement each.
pub(super) fn catalog_rows(script: &mut String) {
    let offset = |seconds: i64| {
        let interval = Interval {
            usecs: seconds * USECS_PER_SEC,
            ..Interval::default()
        };
        literal(&interval.format())
    };
    let now = crate::sql::datetime::now();
    let names: Vec<String> = zone_names()
        .iter()
        .filter_map(|name| Some((name, Zone::setting(name)?)))
        .map(|(name, zone)| {
            format!(
                "({}, {}, {}, {})",
                literal(name),
                literal(&zone.abbreviation_at(now)),
                offset(zone.offset_at(now)),
                zone.is_dst_at(now)
            )
        })
        .collect();
    if !names.is_empty() {
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_timezone_names VALUES {};",
            names.join(", ")
        );
    }
    let abbreviations: Vec<String> = abbreviations()
        .iter()
        .map(|(name, east, dst)| {
            format!("({}, {}, {dst})", literal(name), offset(i64::from(*east)))
        })
        .collect();
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_timezone_abbrevs VALUES {};",
        abbreviations.join(", ")
    );
}
