// pgjdbc logs in with SCRAM-SHA-256, runs a query, and reports the SQLSTATE of a
// wrong password. Run in source-file mode: java -cp postgresql.jar Login.java PORT USER PASSWORD
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

public class Login {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/litewire";
        Properties props = new Properties();
        props.setProperty("user", args[1]);
        props.setProperty("password", args[2]);
        try (Connection conn = DriverManager.getConnection(url, props);
             ResultSet rs = conn.createStatement().executeQuery("SELECT 6 * 7 AS answer")) {
            rs.next();
            System.out.println("answer " + rs.getInt(1));
        }
        props.setProperty("password", args[2] + "-wrong");
        try (Connection conn = DriverManager.getConnection(url, props)) {
            System.out.println("wrong password accepted");
        } catch (SQLException e) {
            System.out.println("refused " + e.getSQLState() + " " + e.getMessage());
        }
    }
}
