// Command pgx drives litewire with the pgx driver (v4, Debian's
// golang-github-jackc-pgx-v4-dev, built in GOPATH mode): pgx prepares every
// statement, reads the parameter types from Describe and sends parameters and
// reads results in binary wherever it knows the type, so the checks are binary
// round trips through the types Describe announced; every common type is also
// read back in text, over the simple protocol.
//
// It connects to the URL in LITEWIRE_PG_URL, runs every check in order and
// exits non-zero at the first failure, naming it.
package main

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

var ctx = context.Background()

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func must(err error, what string) {
	if err != nil {
		fail("%s: %v", what, err)
	}
}

func same(what string, got, want interface{}) {
	if !reflect.DeepEqual(got, want) {
		fail("%s: got %#v, want %#v", what, got, want)
	}
}

func main() {
	url := os.Getenv("LITEWIRE_PG_URL")
	if url == "" {
		fail("LITEWIRE_PG_URL is not set")
	}
	conn, err := pgx.Connect(ctx, url)
	must(err, "connect")
	defer conn.Close(ctx)

	ddl(conn)
	typedRoundTrip(conn)
	statementShapes(conn)
	batch(conn)
	rollback(conn)
	pgError(conn)
	copyFrom(conn)
	fmt.Println("pgx: all checks passed")
}

func ddl(conn *pgx.Conn) {
	_, err := conn.Exec(ctx, `CREATE TABLE kinds (
		id bigint PRIMARY KEY,
		small smallint,
		medium integer,
		large bigint,
		ratio double precision,
		label text,
		payload bytea,
		flag boolean,
		day date,
		at timestamp,
		atz timestamptz,
		amount numeric(10,2),
		uid uuid,
		doc json
	)`)
	must(err, "CREATE TABLE kinds")
	_, err = conn.Exec(ctx, `CREATE TABLE people (id integer PRIMARY KEY, name text NOT NULL, age integer)`)
	must(err, "CREATE TABLE people")
}

func typedRoundTrip(conn *pgx.Conn) {
	day := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	at := time.Date(2024, 3, 1, 12, 34, 56, 789000000, time.UTC)
	atz := time.Date(2024, 3, 1, 23, 59, 58, 123456000, time.UTC)
	uid := [16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}
	payload := []byte{0x00, 0xff, 0x10, 0x80, 0x7f}
	amount := pgtype.Numeric{Int: big.NewInt(123456), Exp: -2, Status: pgtype.Present}

	tag, err := conn.Exec(ctx,
		`INSERT INTO kinds (id, small, medium, large, ratio, label, payload, flag, day, at, atz, amount, uid, doc)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		int64(1), int16(-32000), int32(2000000000), int64(9000000000000000000), 3.25,
		"héllo, wörld", payload, true, day, at, atz, &amount, uid, `{"a": [1, 2, "x"]}`)
	must(err, "INSERT every type")
	same("INSERT tag", tag.String(), "INSERT 0 1")

	// Binary results with binary parameters (pgx's default: prepared, typed
	// by Describe), then text results with the parameter inlined as text.
	checkRow(conn, "binary", atz, uid, payload)
	checkRow(conn, "text", atz, uid, payload, pgx.QuerySimpleProtocol(true))

	// The same numeric and uuid through their text forms and pgtype values.
	var numericText string
	var uidValue pgtype.UUID
	must(conn.QueryRow(ctx, `SELECT amount::text, uid FROM kinds WHERE id = $1`, int64(1)).
		Scan(&numericText, &uidValue), "numeric::text and pgtype.UUID")
	same("numeric::text", numericText, "1234.56")
	same("pgtype.UUID", uidValue.Bytes, uid)

	// NULLs in every column scan into pgtype values with Status Null.
	_, err = conn.Exec(ctx, `INSERT INTO kinds (id) VALUES ($1)`, int64(2))
	must(err, "INSERT NULLs")
	var nullSmall pgtype.Int2
	var nullText pgtype.Text
	var nullTime pgtype.Timestamptz
	must(conn.QueryRow(ctx, `SELECT small, label, atz FROM kinds WHERE id = $1`, int64(2)).
		Scan(&nullSmall, &nullText, &nullTime), "SELECT NULLs")
	same("NULL smallint", nullSmall.Status, pgtype.Null)
	same("NULL text", nullText.Status, pgtype.Null)
	same("NULL timestamptz", nullTime.Status, pgtype.Null)
}

// checkRow reads back row 1 of kinds with every type scanned into its Go type;
// options go before the query's arguments.
func checkRow(conn *pgx.Conn, format string, atz time.Time, uid [16]byte, payload []byte, options ...interface{}) {
	var (
		small   int16
		medium  int32
		large   int64
		ratio   float64
		label   string
		gotData []byte
		flag    bool
		gotDay  time.Time
		gotAt   time.Time
		gotAtz  time.Time
		gotAmt  pgtype.Numeric
		gotUID  [16]byte
		doc     map[string]interface{}
	)
	err := conn.QueryRow(ctx,
		`SELECT small, medium, large, ratio, label, payload, flag, day, at, atz, amount, uid, doc
		 FROM kinds WHERE id = $1`, append(options, int64(1))...).
		Scan(&small, &medium, &large, &ratio, &label, &gotData, &flag, &gotDay, &gotAt, &gotAtz, &gotAmt, &gotUID, &doc)
	must(err, format+": SELECT every type")
	same(format+": smallint", small, int16(-32000))
	same(format+": integer", medium, int32(2000000000))
	same(format+": bigint", large, int64(9000000000000000000))
	same(format+": double precision", ratio, 3.25)
	same(format+": text", label, "héllo, wörld")
	same(format+": bytea", gotData, payload)
	same(format+": boolean", flag, true)
	same(format+": date", gotDay.Format("2006-01-02"), "2024-02-29")
	same(format+": timestamp", gotAt.Format("2006-01-02 15:04:05.000"), "2024-03-01 12:34:56.789")
	if !gotAtz.Equal(atz) {
		fail(format+": timestamptz: got %v, want %v", gotAtz, atz)
	}
	if gotAmt.Status != pgtype.Present || numericRat(gotAmt).Cmp(big.NewRat(123456, 100)) != 0 {
		fail(format+": numeric: got %#v, want 1234.56", gotAmt)
	}
	same(format+": uuid", gotUID, uid)
	same(format+": json", doc, map[string]interface{}{"a": []interface{}{1.0, 2.0, "x"}})
}

// numericRat is n's exact value: Int * 10^Exp.
func numericRat(n pgtype.Numeric) *big.Rat {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(n.Exp))), nil)
	value := new(big.Rat).SetInt(n.Int)
	if n.Exp < 0 {
		return value.Quo(value, new(big.Rat).SetInt(scale))
	}
	return value.Mul(value, new(big.Rat).SetInt(scale))
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func statementShapes(conn *pgx.Conn) {
	// INSERT with and without a column list.
	_, err := conn.Exec(ctx, `INSERT INTO people (id, name, age) VALUES ($1, $2, $3)`, int32(1), "ann", int32(30))
	must(err, "INSERT with a column list")
	_, err = conn.Exec(ctx, `INSERT INTO people VALUES ($1, $2, $3)`, int32(2), "bob", int32(40))
	must(err, "INSERT without a column list")
	_, err = conn.Exec(ctx, `INSERT INTO people VALUES ($1, $2, $3), ($4, $5, $6)`,
		int32(3), "cy", int32(50), int32(4), "di", nil)
	must(err, "multi-row INSERT")

	// UPDATE ... SET with a WHERE col = $1.
	tag, err := conn.Exec(ctx, `UPDATE people SET age = $1 WHERE name = $2`, int32(31), "ann")
	must(err, "UPDATE SET ... WHERE name = $2")
	same("UPDATE tag", tag.String(), "UPDATE 1")
	var age int32
	must(conn.QueryRow(ctx, `SELECT age FROM people WHERE id = $1`, int32(1)).Scan(&age), "SELECT WHERE id = $1")
	same("updated age", age, int32(31))

	// = ANY($1) with a Go slice, LIMIT $1.
	rows, err := conn.Query(ctx, `SELECT name FROM people WHERE id = ANY($1) ORDER BY id LIMIT $2`,
		[]int32{1, 3, 4}, int64(2))
	must(err, "SELECT = ANY($1) LIMIT $2")
	var names []string
	for rows.Next() {
		var name string
		must(rows.Scan(&name), "scan a name")
		names = append(names, name)
	}
	must(rows.Err(), "rows of = ANY($1)")
	same("= ANY($1) LIMIT $2", names, []string{"ann", "cy"})

	// A comparison and arithmetic with a column.
	var older int64
	must(conn.QueryRow(ctx, `SELECT count(*) FROM people WHERE age + $1 > $2`, int32(5), int32(44)).Scan(&older),
		"count(*) WHERE age + $1 > $2")
	same("age + $1 > $2", older, int64(2))

	// DELETE with a parameter, then the row is gone.
	tag, err = conn.Exec(ctx, `DELETE FROM people WHERE id = $1`, int32(4))
	must(err, "DELETE WHERE id = $1")
	same("DELETE tag", tag.String(), "DELETE 1")
}

func copyFrom(conn *pgx.Conn) {
	rows := [][]interface{}{
		{int32(10), "copy one", int32(1)},
		{int32(11), "copy two", nil},
		{int32(12), "copy, three\ttabbed", int32(3)},
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"people"}, []string{"id", "name", "age"}, pgx.CopyFromRows(rows))
	must(err, "CopyFrom")
	same("CopyFrom count", n, int64(3))
	var name string
	var age pgtype.Int4
	must(conn.QueryRow(ctx, `SELECT name, age FROM people WHERE id = $1`, int32(12)).Scan(&name, &age), "SELECT a copied row")
	same("copied text", name, "copy, three\ttabbed")
	same("copied integer", age.Int, int32(3))
	must(conn.QueryRow(ctx, `SELECT age FROM people WHERE id = $1`, int32(11)).Scan(&age), "SELECT a copied NULL")
	same("copied NULL", age.Status, pgtype.Null)
}

func batch(conn *pgx.Conn) {
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO people (id, name, age) VALUES ($1, $2, $3)`, int32(20), "batch one", int32(20))
	b.Queue(`INSERT INTO people (id, name, age) VALUES ($1, $2, $3)`, int32(21), "batch two", int32(21))
	b.Queue(`SELECT count(*) FROM people WHERE id >= $1`, int32(20))
	results := conn.SendBatch(ctx, b)
	for i := 0; i < 2; i++ {
		tag, err := results.Exec()
		must(err, fmt.Sprintf("batch INSERT %d", i+1))
		same("batch INSERT tag", tag.String(), "INSERT 0 1")
	}
	var count int64
	must(results.QueryRow().Scan(&count), "batch SELECT")
	same("batch count", count, int64(2))
	must(results.Close(), "close the batch")
}

func rollback(conn *pgx.Conn) {
	tx, err := conn.Begin(ctx)
	must(err, "BEGIN")
	_, err = tx.Exec(ctx, `INSERT INTO people (id, name) VALUES ($1, $2)`, int32(30), "rolled back")
	must(err, "INSERT in a transaction")
	var inside int64
	must(tx.QueryRow(ctx, `SELECT count(*) FROM people WHERE id = $1`, int32(30)).Scan(&inside), "SELECT in a transaction")
	same("row inside the transaction", inside, int64(1))
	must(tx.Rollback(ctx), "ROLLBACK")
	var after int64
	must(conn.QueryRow(ctx, `SELECT count(*) FROM people WHERE id = $1`, int32(30)).Scan(&after), "SELECT after ROLLBACK")
	same("row after ROLLBACK", after, int64(0))

	tx, err = conn.Begin(ctx)
	must(err, "BEGIN")
	_, err = tx.Exec(ctx, `INSERT INTO people (id, name) VALUES ($1, $2)`, int32(31), "committed")
	must(err, "INSERT in a transaction")
	must(tx.Commit(ctx), "COMMIT")
	must(conn.QueryRow(ctx, `SELECT count(*) FROM people WHERE id = $1`, int32(31)).Scan(&after), "SELECT after COMMIT")
	same("row after COMMIT", after, int64(1))
}

func sqlstate(err error, what string) string {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		fail("%s: want a *pgconn.PgError, got %v", what, err)
	}
	return pgErr.Code
}

func pgError(conn *pgx.Conn) {
	_, err := conn.Exec(ctx, `INSERT INTO people (id, name) VALUES ($1, $2)`, int32(1), "duplicate")
	same("duplicate key SQLSTATE", sqlstate(err, "duplicate key"), "23505")
	_, err = conn.Exec(ctx, `INSERT INTO people (id, name) VALUES ($1, $2)`, int32(40), nil)
	same("NOT NULL SQLSTATE", sqlstate(err, "NULL name"), "23502")
	_, err = conn.Exec(ctx, `SELECT * FROM no_such_table WHERE id = $1`, int32(1))
	same("undefined table SQLSTATE", sqlstate(err, "no such table"), "42P01")
	_, err = conn.Exec(ctx, `SELEC 1`)
	same("syntax error SQLSTATE", sqlstate(err, "syntax error"), "42601")

	// A failed statement inside a transaction aborts it (25P02) until ROLLBACK.
	tx, err := conn.Begin(ctx)
	must(err, "BEGIN")
	_, err = tx.Exec(ctx, `INSERT INTO people (id, name) VALUES ($1, $2)`, int32(1), "duplicate")
	same("duplicate key in a transaction", sqlstate(err, "duplicate key in a transaction"), "23505")
	_, err = tx.Exec(ctx, `SELECT count(*) FROM people WHERE id = $1`, int32(1))
	same("aborted transaction SQLSTATE", sqlstate(err, "aborted transaction"), "25P02")
	must(tx.Rollback(ctx), "ROLLBACK an aborted transaction")

	// The connection is still usable.
	var one int32
	must(conn.QueryRow(ctx, `SELECT age FROM people WHERE id = $1`, int32(1)).Scan(&one), "SELECT after errors")
	same("age after errors", one, int32(31))
}
