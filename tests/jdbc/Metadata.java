// pgjdbc's DatabaseMetaData (what DBeaver and DataGrip call to show a schema):
// creates a schema, then prints the rows getTables, getColumns, getPrimaryKeys,
// getImportedKeys, getExportedKeys and getIndexInfo return, one line each, for
// tests/reflection.rs to compare. Run in source-file mode:
// java -cp postgresql.jar Metadata.java PORT
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

public class Metadata {
    static void print(String call, ResultSet rs, String... columns) throws Exception {
        try (rs) {
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (String column : columns) {
                    // NAME? reads a boolean, as getBoolean gives it.
                    String value = column.endsWith("?")
                            ? String.valueOf(rs.getBoolean(column.substring(0, column.length() - 1)))
                            : rs.getString(column);
                    values.add(column.replace("?", "") + "=" + value);
                }
                System.out.println(call + " " + String.join(" ", values));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/litewire";
        Properties props = new Properties();
        props.setProperty("user", "postgres");
        try (Connection conn = DriverManager.getConnection(url, props)) {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE parent (id serial PRIMARY KEY, name varchar(40) NOT NULL UNIQUE)");
                st.execute("CREATE TABLE child (id integer PRIMARY KEY, pid int REFERENCES parent(id) ON DELETE CASCADE, "
                        + "note text DEFAULT 'x', amount numeric(10,2), flag boolean NOT NULL)");
                st.execute("CREATE INDEX child_pid ON child(pid)");
                st.execute("CREATE VIEW v AS SELECT id, note FROM child");
                st.execute("CREATE TABLE tag (b text, a int, PRIMARY KEY (a, b))");
                st.execute("CREATE TABLE tagged (id int PRIMARY KEY, tb text, ta int, "
                        + "FOREIGN KEY (ta, tb) REFERENCES tag (a, b) ON UPDATE CASCADE)");
            }
            DatabaseMetaData meta = conn.getMetaData();
            print("tables", meta.getTables(null, "public", "%", new String[] {"TABLE", "VIEW"}),
                    "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE");
            print("columns", meta.getColumns(null, "public", "child", "%"),
                    "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS",
                    "NULLABLE", "COLUMN_DEF", "ORDINAL_POSITION", "IS_NULLABLE");
            print("primary", meta.getPrimaryKeys(null, "public", "child"),
                    "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
            print("primary", meta.getPrimaryKeys(null, "public", "tag"),
                    "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
            print("imported", meta.getImportedKeys(null, "public", "tagged"),
                    "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ",
                    "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME");
            print("index", meta.getIndexInfo(null, "public", "tag", false, false),
                    "INDEX_NAME", "NON_UNIQUE?", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC");
            print("imported", meta.getImportedKeys(null, "public", "child"),
                    "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ",
                    "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME");
            print("exported", meta.getExportedKeys(null, "public", "parent"),
                    "PKTABLE_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME", "FK_NAME");
            print("index", meta.getIndexInfo(null, "public", "child", false, false),
                    "INDEX_NAME", "NON_UNIQUE?", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC");
            print("index", meta.getIndexInfo(null, "public", "parent", true, false),
                    "INDEX_NAME", "NON_UNIQUE?", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC");
        }
    }
}
