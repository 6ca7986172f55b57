package org.idgen.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/** The server under test: IDGEN_JDBC_URL, as IDGEN_JDBC_USER (the database's owner, not a superuser). */
final class Db
{
	static final String URL = required("IDGEN_JDBC_URL");
	static final String USER = required("IDGEN_JDBC_USER");

	private Db()
	{
	}

	private static String required(String name)
	{
		String value = System.getenv(name);
		if (value == null || value.isEmpty())
			throw new IllegalStateException(name + " is not set: the tests need a server (see clients/java/README.md)");
		return value;
	}

	static Connection connect(String... options) throws SQLException
	{
		Properties props = new Properties();
		props.setProperty("user", USER);
		for (int i = 0; i + 1 < options.length; i += 2)
			props.setProperty(options[i], options[i + 1]);
		return DriverManager.getConnection(URL, props);
	}

	/** The first column of the first row of a query with text parameters, as text. */
	static String text(Connection conn, String sql, Object... params) throws SQLException
	{
		try (PreparedStatement ps = conn.prepareStatement(sql))
		{
			for (int i = 0; i < params.length; i++)
				ps.setObject(i + 1, params[i]);
			try (ResultSet rs = ps.executeQuery())
			{
				return rs.next() ? rs.getString(1) : null;
			}
		}
	}
}
