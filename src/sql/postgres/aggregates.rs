//! Which functions aggregate rows, and which engine aggregate answers a
//! statistics aggregate whose answer is `numeric` (of integers and numeric:
//! exact, to PostgreSQL's digits; of floats, float8's own).

/// The functions that aggregate rows (outside a window).
pub(crate) fn is_aggregate(name: &str) -> bool {
    matches!(
        name,
        "count"
            | "sum"
            | "avg"
            | "min"
            | "max"
            | "bool_and"
            | "bool_or"
            | "every"
            | "bit_and"
            | "bit_or"
            | "bit_xor"
            | "string_agg"
            | "array_agg"
            | "json_agg"
            | "jsonb_agg"
            | "json_object_agg"
            | "jsonb_object_agg"
            | "stddev"
            | "stddev_pop"
            | "stddev_samp"
            | "variance"
            | "var_pop"
            | "var_samp"
            | "covar_pop"
            | "covar_samp"
            | "corr"
            | "regr_count"
            | "regr_sxx"
            | "regr_syy"
            | "regr_sxy"
            | "regr_avgx"
            | "regr_avgy"
            | "regr_r2"
            | "regr_slope"
            | "regr_intercept"
            | "percentile_cont"
            | "percentile_disc"
            | "mode"
            | "group_concat"
            | "total"
    )
}

/// The exact `numeric` version of a spread (`var_pop`, `stddev`...).
pub(super) fn numeric_spread(name: &str) -> Option<&'static str> {
    Some(match name {
        "var_pop" => "litewire_numeric_var_pop",
        "var_samp" | "variance" => "litewire_numeric_var_samp",
        "stddev_pop" => "litewire_numeric_stddev_pop",
        "stddev_samp" | "stddev" => "litewire_numeric_stddev_samp",
        _ => return None,
    })
}
