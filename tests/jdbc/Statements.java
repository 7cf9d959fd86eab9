// pgjdbc beyond metadata: PreparedStatement with setObject/setBytes/setTimestamp/
// setBigDecimal (values read back in text and, with prepareThreshold=-1, in
// binary), the statement shapes whose parameter types the server infers,
// addBatch/executeBatch, getGeneratedKeys, transactions with
// setAutoCommit(false), rollback and savepoints, and SQLException.getSQLState.
// Run in source-file mode: java -cp postgresql.jar Statements.java PORT SECTION,
// SECTION one of types, statements, transactions; prints "ok SECTION" or fails.
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import java.util.TimeZone;
import java.util.UUID;

public class Statements {
    static String port;

    static Connection connect(String... properties) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "postgres");
        for (int i = 0; i + 1 < properties.length; i += 2) {
            props.setProperty(properties[i], properties[i + 1]);
        }
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/litewire", props);
    }

    static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    static void equal(Object actual, Object expected, String what) {
        boolean same = actual instanceof byte[] && expected instanceof byte[]
                ? Arrays.equals((byte[]) actual, (byte[]) expected)
                : Objects.equals(actual, expected);
        if (!same) {
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    static String sqlState(Statement st, String sql) {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            return e.getSQLState();
        }
        throw new AssertionError("expected an error from " + sql);
    }

    static String sqlState(PreparedStatement ps) {
        try {
            ps.execute();
        } catch (SQLException e) {
            return e.getSQLState();
        }
        throw new AssertionError("expected an error");
    }

    static final String TYPED_DDL = "CREATE TABLE typed (k integer PRIMARY KEY, i2 smallint, i4 integer, "
            + "i8 bigint, f8 double precision, n numeric(12,2), t text, vc varchar(20), b boolean, "
            + "by bytea, d date, ts timestamp, tz timestamptz, u uuid)";

    static final Timestamp TS = Timestamp.valueOf("1999-12-31 23:59:59.999999");
    static final OffsetDateTime TZ = OffsetDateTime.of(2024, 1, 1, 10, 0, 0, 500_000_000, ZoneOffset.UTC);
    static final UUID U = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    static final byte[] BYTES = {0, 1, (byte) 0xff, '\\'};

    static void types() throws Exception {
        try (Connection conn = connect()) {
            try (Statement st = conn.createStatement()) {
                st.execute(TYPED_DDL);
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setShort(2, (short) -12345);
                ps.setInt(3, 2_000_000_000);
                ps.setLong(4, -9_000_000_000_000L);
                ps.setDouble(5, -2.25e-10);
                ps.setBigDecimal(6, new BigDecimal("12345678.90"));
                ps.setString(7, "héllo, wörld");
                ps.setString(8, "O'Brien");
                ps.setBoolean(9, true);
                ps.setBytes(10, BYTES);
                ps.setDate(11, Date.valueOf("2024-02-29"));
                ps.setTimestamp(12, TS);
                ps.setObject(13, TZ);
                ps.setObject(14, U);
                equal(ps.executeUpdate(), 1, "insert");
                ps.setInt(1, 2);
                for (int i = 2; i <= 14; i++) {
                    ps.setNull(i, Types.NULL);
                }
                equal(ps.executeUpdate(), 1, "insert nulls");
                // setObject with the Java types of each column.
                ps.setObject(1, 3);
                ps.setObject(2, (short) 32767);
                ps.setObject(3, -1);
                ps.setObject(4, Long.MAX_VALUE);
                ps.setObject(5, 1e300);
                ps.setObject(6, new BigDecimal("-0.05"));
                ps.setObject(7, "");
                ps.setObject(8, "x");
                ps.setObject(9, false);
                ps.setObject(10, new byte[0]);
                ps.setObject(11, LocalDate.of(1, 1, 2));
                ps.setObject(12, LocalDateTime.of(2000, 1, 1, 0, 0));
                ps.setObject(13, OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
                ps.setObject(14, new UUID(0, 0));
                equal(ps.executeUpdate(), 1, "insert with setObject");
            }
            readBack(conn, "text");
        }
        // prepareThreshold=-1: every statement is prepared on the server and its
        // results come in binary.
        try (Connection conn = connect("prepareThreshold", "-1")) {
            readBack(conn, "binary");
        }
    }

    static void readBack(Connection conn, String format) throws Exception {
        try (PreparedStatement ps = conn.prepareStatement("SELECT * FROM typed WHERE k = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "row 1 " + format);
                equal(rs.getShort("i2"), (short) -12345, "i2 " + format);
                equal(rs.getInt("i4"), 2_000_000_000, "i4 " + format);
                equal(rs.getLong("i8"), -9_000_000_000_000L, "i8 " + format);
                equal(rs.getDouble("f8"), -2.25e-10, "f8 " + format);
                equal(rs.getBigDecimal("n"), new BigDecimal("12345678.90"), "n " + format);
                equal(rs.getString("t"), "héllo, wörld", "t " + format);
                equal(rs.getString("vc"), "O'Brien", "vc " + format);
                equal(rs.getBoolean("b"), true, "b " + format);
                equal(rs.getBytes("by"), BYTES, "by " + format);
                equal(rs.getDate("d"), Date.valueOf("2024-02-29"), "d " + format);
                equal(rs.getTimestamp("ts"), TS, "ts " + format);
                equal(rs.getObject("tz", OffsetDateTime.class), TZ, "tz " + format);
                equal(rs.getObject("u"), U, "u " + format);
                equal(rs.getObject("i8").getClass(), Long.class, "i8 class " + format);
                equal(rs.getMetaData().getColumnTypeName(13), "timestamptz", "tz type " + format);
                equal(rs.getMetaData().getColumnType(7), Types.VARCHAR, "t JDBC type " + format);
                equal(rs.getMetaData().getScale(6), 2, "n scale " + format);
                check(!rs.next(), "one row");
            }
            ps.setInt(1, 2);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "row 2 " + format);
                for (int i = 2; i <= 14; i++) {
                    equal(rs.getObject(i), null, "null " + i + " " + format);
                }
            }
            ps.setInt(1, 3);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "row 3 " + format);
                equal(rs.getLong("i8"), Long.MAX_VALUE, "i8 max " + format);
                equal(rs.getDouble("f8"), 1e300, "f8 big " + format);
                equal(rs.getBigDecimal("n"), new BigDecimal("-0.05"), "n small " + format);
                equal(rs.getBytes("by").length, 0, "empty bytea " + format);
                equal(rs.getObject("d", LocalDate.class), LocalDate.of(1, 1, 2), "early date " + format);
                equal(rs.getObject("ts", LocalDateTime.class), LocalDateTime.of(2000, 1, 1, 0, 0), "ts " + format);
                equal(rs.getObject("tz", OffsetDateTime.class),
                        OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), "epoch " + format);
                equal(rs.getObject("u"), new UUID(0, 0), "nil uuid " + format);
            }
        }
        // A bind of each type finds its row again.
        try (PreparedStatement ps = conn.prepareStatement("SELECT k FROM typed WHERE i8 = ? AND n = ? "
                + "AND by = ? AND d = ? AND ts = ? AND tz = ? AND u = ? AND b = ?")) {
            ps.setLong(1, -9_000_000_000_000L);
            ps.setBigDecimal(2, new BigDecimal("12345678.90"));
            ps.setBytes(3, BYTES);
            ps.setDate(4, Date.valueOf("2024-02-29"));
            ps.setTimestamp(5, TS);
            ps.setObject(6, TZ);
            ps.setObject(7, U);
            ps.setBoolean(8, true);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "found by binds " + format);
                equal(rs.getInt(1), 1, "k " + format);
            }
        }
    }

    static void statements() throws Exception {
        try (Connection conn = connect(); Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE items (id serial PRIMARY KEY, name varchar(20) NOT NULL, "
                    + "price double precision, qty bigint, ok boolean)");
            st.execute("CREATE TABLE orders (item integer, amount bigint, at timestamptz)");

            // addBatch/executeBatch: the same statement with many rows.
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO items (name, price, qty, ok) VALUES (?, ?, ?, ?)")) {
                Object[][] rows = {{"apple", 1.25, 10L, true}, {"pear", null, 5_000_000_000L, false},
                        {"fig", 3.5, 7L, true}};
                for (Object[] row : rows) {
                    ps.setString(1, (String) row[0]);
                    ps.setObject(2, row[1], Types.DOUBLE);
                    ps.setLong(3, (Long) row[2]);
                    ps.setBoolean(4, (Boolean) row[3]);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                equal(Arrays.toString(counts), "[1, 1, 1]", "batch counts");
            }
            // A batch of plain statements.
            st.addBatch("INSERT INTO orders (item, amount) VALUES (1, 3)");
            st.addBatch("INSERT INTO orders (item, amount) VALUES (3, 40)");
            equal(Arrays.toString(st.executeBatch()), "[1, 1]", "statement batch");

            // getGeneratedKeys: pgjdbc adds RETURNING to the INSERT.
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO items (name, qty) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "kiwi");
                ps.setLong(2, 2);
                equal(ps.executeUpdate(), 1, "insert kiwi");
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    check(keys.next(), "a generated key");
                    equal(keys.getInt("id"), 4, "generated id");
                    equal(keys.getString("name"), "kiwi", "returned name");
                }
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO items (name) VALUES (?), (?)", new String[] {"id"})) {
                ps.setString(1, "lime");
                ps.setString(2, "plum");
                ps.executeUpdate();
                List<Integer> ids = new ArrayList<>();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    while (keys.next()) {
                        ids.add(keys.getInt(1));
                    }
                }
                equal(ids.toString(), "[5, 6]", "generated ids of two rows");
            }
            st.execute("DELETE FROM items WHERE id > 4");

            // The statement shapes whose parameter types the server infers.
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO orders SELECT id + ?, qty * ?, ? FROM items WHERE name = ?")) {
                ps.setInt(1, 100);
                ps.setLong(2, 2);
                ps.setObject(3, TZ);
                ps.setString(4, "fig");
                equal(ps.executeUpdate(), 1, "insert select");
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO items (id, name, qty) VALUES (?, ?, ?) ON CONFLICT (id) "
                            + "DO UPDATE SET qty = items.qty + ?, price = ? RETURNING id, qty, name || ?")) {
                ps.setInt(1, 1);
                ps.setString(2, "apple");
                ps.setLong(3, 0);
                ps.setLong(4, 5);
                ps.setDouble(5, 2.5);
                ps.setString(6, "!");
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "upsert row");
                    equal(rs.getInt(1) + " " + rs.getLong(2) + " " + rs.getString(3), "1 15 apple!", "upsert");
                }
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id FROM items WHERE qty * ? > ? AND name LIKE ? AND coalesce(price, ?) BETWEEN ? AND ? "
                            + "AND id IN (?, ?) ORDER BY id LIMIT ? OFFSET ?")) {
                Object[] values = {2L, 10L, "%i%", 3.5, 3.0, 4.0, 2, 3, 5L, 0L};
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                equal(ids(ps.executeQuery()), "[3]", "operators");
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT CASE WHEN id = ? THEN ? ELSE name END FROM items WHERE id IN "
                            + "(SELECT item FROM orders WHERE amount > ?) ORDER BY id")) {
                ps.setInt(1, 3);
                ps.setString(2, "FIG");
                ps.setLong(3, 2);
                equal(strings(ps.executeQuery()), "[apple, FIG]", "case and subquery");
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id FROM items WHERE name = ANY(?) ORDER BY id")) {
                ps.setArray(1, conn.createArrayOf("text", new String[] {"fig", "apple", "none"}));
                equal(ids(ps.executeQuery()), "[1, 3]", "= ANY(array)");
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "UPDATE items SET price = price * ? WHERE ok = ? AND price IS NOT NULL")) {
                ps.setDouble(1, 2);
                ps.setBoolean(2, true);
                equal(ps.executeUpdate(), 2, "update count");
            }
            // The same PreparedStatement many times: past prepareThreshold (5)
            // pgjdbc switches to a named server-side statement.
            try (PreparedStatement ps = conn.prepareStatement("SELECT name FROM items WHERE id = ?")) {
                List<String> names = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    ps.setInt(1, i % 3 + 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        names.add(rs.getString(1));
                    }
                }
                equal(names.toString(), "[apple, pear, fig, apple, pear, fig, apple, pear]", "reused statement");
            }
        }
    }

    static String ids(ResultSet rs) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids.toString();
    }

    static String strings(ResultSet rs) throws SQLException {
        List<String> values = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values.toString();
    }

    static String show(Connection conn, String setting) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static int count(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM ledger")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static void transactions() throws Exception {
        try (Connection conn = connect()) {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE ledger (id integer PRIMARY KEY, v text NOT NULL)");
            }
            PreparedStatement insert = conn.prepareStatement("INSERT INTO ledger VALUES (?, ?)");
            conn.setAutoCommit(false);
            insert.setInt(1, 1);
            insert.setString(2, "rolled back");
            insert.executeUpdate();
            equal(count(conn), 1, "inside");
            conn.rollback();
            equal(count(conn), 0, "after rollback");

            insert.setInt(1, 1);
            insert.setString(2, "kept");
            insert.executeUpdate();
            Savepoint savepoint = conn.setSavepoint();
            insert.setInt(1, 2);
            insert.setString(2, "undone");
            insert.executeUpdate();
            insert.setInt(1, 1);
            insert.setString(2, "duplicate");
            equal(sqlState(insert), "23505", "duplicate in a transaction");
            conn.rollback(savepoint);
            Savepoint named = conn.setSavepoint("named");
            insert.setInt(1, 3);
            insert.setString(2, "after");
            insert.executeUpdate();
            conn.releaseSavepoint(named);
            conn.commit();
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, v FROM ledger ORDER BY id")) {
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getInt(1) + ":" + rs.getString(2));
                }
                equal(rows.toString(), "[1:kept, 3:after]", "savepoints");
            }

            // A failed transaction refuses everything until rollback (25P02).
            try (Statement st = conn.createStatement()) {
                equal(sqlState(st, "SELECT * FROM nope"), "42P01", "no such table");
                equal(sqlState(st, "SELECT 1"), "25P02", "in failed transaction");
            }
            conn.rollback();
            conn.setAutoCommit(true);
            conn.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            conn.setAutoCommit(false);
            equal(show(conn, "transaction_isolation"), "serializable", "JDBC's isolation level");
            insert.setInt(1, 4);
            insert.setString(2, "serializable");
            insert.executeUpdate();
            conn.commit();
            conn.setAutoCommit(true);
            equal(count(conn), 3, "serializable commit");

            // A serializable transaction may not update what another committed
            // after it read (40001), nor write at all when read-only (25006).
            try (Connection other = connect(); Statement mine = conn.createStatement();
                 Statement theirs = other.createStatement()) {
                conn.setAutoCommit(false);
                equal(count(conn), 3, "read first");
                theirs.executeUpdate("UPDATE ledger SET v = 'theirs' WHERE id = 4");
                equal(sqlState(mine, "UPDATE ledger SET v = 'mine' WHERE id = 4"), "40001", "a lost update refused");
                conn.rollback();
                conn.setReadOnly(true);
                insert.setInt(1, 5);
                insert.setString(2, "read-only");
                equal(sqlState(insert), "25006", "a write in a read-only transaction");
                conn.rollback();
                conn.setReadOnly(false);
                conn.setAutoCommit(true);
                conn.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }

            // LISTEN/NOTIFY: a listener gets what was sent with its next exchange.
            try (Connection listener = connect(); Statement listens = listener.createStatement();
                 Statement sends = conn.createStatement()) {
                listens.execute("LISTEN jdbc_events");
                sends.execute("NOTIFY jdbc_events, 'hello'");
                listens.execute("SELECT 1");
                PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications();
                equal(got.length, 1, "one notification");
                equal(got[0].getName() + ":" + got[0].getParameter(), "jdbc_events:hello", "its channel and payload");
            }

            // Errors carry their SQLSTATE; the connection carries on.
            try (Statement st = conn.createStatement()) {
                insert.setInt(1, 1);
                insert.setString(2, "again");
                equal(sqlState(insert), "23505", "unique violation");
                insert.setInt(1, 9);
                insert.setNull(2, Types.VARCHAR);
                equal(sqlState(insert), "23502", "not null violation");
                equal(sqlState(st, "SELECT * FROM no_such_table"), "42P01", "undefined table");
                equal(sqlState(st, "SELEC 1").substring(0, 2), "42", "syntax error class");
                equal(sqlState(st, "SELECT 'abc'::int"), "22P02", "invalid integer");
            }
            try (PreparedStatement ps = conn.prepareStatement("SELECT * FROM no_such_table WHERE id = ?")) {
                ps.setInt(1, 1);
                equal(sqlState(ps), "42P01", "undefined table, prepared");
            }
            equal(count(conn), 3, "carries on");
            insert.close();
        }
    }

    public static void main(String[] args) throws Exception {
        // Timestamps without time zone are read in the JVM's zone.
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        port = args[0];
        switch (args[1]) {
            case "types" -> types();
            case "statements" -> statements();
            case "transactions" -> transactions();
            default -> throw new IllegalArgumentException(args[1]);
        }
        System.out.println("ok " + args[1]);
    }
}
