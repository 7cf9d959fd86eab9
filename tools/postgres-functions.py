#!/usr/bin/env python3
"""Regenerates src/engine/functions/postgres_functions.tsv: PostgreSQL 15's
pg_proc rows for the built-in functions litewire answers on its PostgreSQL
port, so that pg_proc, regproc, to_regproc and psql's \\df name them as
PostgreSQL does.

A signature is listed when every type it takes and returns is one litewire
has as a type, and a call of it with NULL arguments of those types (in FROM
for a set-returning function, with OVER () for a window function, with WITHIN
GROUP for an ordered-set aggregate) runs on litewire. tests/catalog.rs calls
every listed signature again, so the list cannot claim what is not there.

    tools/postgres-functions.py "host=... dbname=... (PostgreSQL 15)" "host=... port=... (litewire)"
"""

import os
import sys

import psycopg2

# The types litewire has (see src/sql/postgres/types.rs), by PostgreSQL oid;
# arrays of them too.
TYPES = {
    16, 17, 18, 19, 20, 21, 23, 24, 25, 26, 114, 700, 701, 1042, 1043, 1082, 1083, 1114,
    1184, 1186, 1700, 2205, 2206, 2950, 3802, 4072, 869, 650,
}
# Pseudo-types, and the type a probe passes for them.
PSEUDO = {2276: "int4", 2283: "int4", 2776: "int4", 5077: "int4", 5079: "int4",
          2277: "int4[]", 5078: "int4[]"}
RESULT_PSEUDO = {2276, 2283, 2776, 5077, 5079, 2277, 5078, 2278, 2249}

SIGNATURES = """
SELECT p.oid, p.proname, p.prokind, p.proretset, p.provariadic, p.prorettype,
       p.proargtypes::oid[], coalesce(a.aggkind, ''), coalesce(a.aggnumdirectargs, 0),
       p.prolang, p.procost, p.prorows, p.proisstrict, p.provolatile, p.proparallel,
       p.pronargs, p.pronargdefaults, p.proleakproof, p.proargtypes::text,
       coalesce(p.proallargtypes::text, ''), coalesce(p.proargmodes::text, ''),
       coalesce(p.proargnames::text, ''), p.prosrc,
       pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
       coalesce(obj_description(p.oid, 'pg_proc'), '')
FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind IN ('f', 'a', 'w')
ORDER BY p.oid
"""


def main():
    postgres = psycopg2.connect(sys.argv[1])
    litewire = psycopg2.connect(sys.argv[2])
    litewire.autocommit = True
    types = sorted(TYPES)
    with postgres.cursor() as cur:
        cur.execute(SIGNATURES)
        rows = cur.fetchall()
        cur.execute("SELECT typarray FROM pg_type WHERE oid = ANY(%s)", (types,))
        arrays = {array for (array,) in cur.fetchall() if array}
        names = {}
        cur.execute("SELECT oid, format_type(oid, NULL) FROM pg_type")
        for oid, name in cur.fetchall():
            names[oid] = name
    known = TYPES | arrays
    listed = []
    for row in rows:
        (oid, name, kind, retset, variadic, result, args, aggkind, direct) = row[:9]
        if not all(a in known or a in PSEUDO for a in args):
            continue
        if result not in known and result not in RESULT_PSEUDO:
            continue
        values = [f"NULL::{PSEUDO.get(a) or names[a]}" for a in args]
        if variadic and variadic != 2276 and values:
            # Called with the elements, not with an array.
            values[-1] = f"NULL::{PSEUDO.get(variadic) or names[variadic]}"
        if kind == "a" and not values:
            values = ["*"]
        if call_runs(litewire, name, kind, retset, aggkind, direct, values):
            listed.append(row)
    out = os.path.join(os.path.dirname(__file__), "..", "src", "engine", "functions",
                       "postgres_functions.tsv")
    with open(out, "w") as f:
        for row in listed:
            f.write("\t".join(field(v) for v in (*row[:6], *row[9:25], *row[7:9], row[25])) + "\n")
    print(f"{len(listed)} of {len(rows)} signatures listed", file=sys.stderr)


def field(value):
    if isinstance(value, bool):
        return "t" if value else "f"
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def call_runs(conn, name, kind, retset, aggkind, direct, values):
    quoted = '"' + name.replace('"', '""') + '"'
    if aggkind == "h":
        # One direct argument per sort key, both VARIADIC "any".
        call = f"{quoted}({values[0]}) WITHIN GROUP (ORDER BY {values[0]})"
    elif aggkind == "o":
        call = (f"{quoted}({', '.join(values[:direct])}) WITHIN GROUP "
                f"(ORDER BY {', '.join(values[direct:])})")
    else:
        call = f"{quoted}({', '.join(values)})"
    if kind == "w":
        call += " OVER ()"
    statements = [f"SELECT * FROM {call} AS probe LIMIT 0"] if retset else []
    statements.append(f"SELECT {call}")
    for sql in statements:
        try:
            with conn.cursor() as cur:
                cur.execute(sql)
                cur.fetchall()
            return True
        except psycopg2.Error:
            continue
    return False


if __name__ == "__main__":
    main()
