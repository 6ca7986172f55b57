package org.idgen.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.idgen.Idgen;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (the pom excludes it): decodes 1,000,000 rows per family through pgjdbc
 * with getObject, once as text and once in binary, on the same server and data, and prints the
 * ratio text time / binary time (best of 3 each). Run by hand:
 * {@code mvn test -Dtest=DecodeSpeedTest} with IDGEN_JDBC_URL and IDGEN_JDBC_USER set.
 */
class DecodeSpeedTest
{
	static final int ROWS = 1_000_000;
	static final String[][] FAMILIES = {
		{"uuid_v7", "uuid", "uuid_v7()"},
		{"snowflake", "bigint", "snowflake(1)"},
		{"ulid", "ulid", "ulid()"},
		{"prefixed_id", "prefixed_id", "prefixed_id_new('acct')"},
		{"typeid", "typeid", "typeid_new('user')"},
	};

	@Test
	void textAgainstBinary() throws SQLException
	{
		try (Connection setup = Db.connect(); Statement st = setup.createStatement())
		{
			st.execute("CREATE EXTENSION IF NOT EXISTS idgen");
			for (String[] f : FAMILIES)
			{
				st.execute("DROP TABLE IF EXISTS speed_" + f[0]);
				st.execute("CREATE TABLE speed_" + f[0] + " AS SELECT " + f[2] + " AS v FROM generate_series(1, " + ROWS + ")");
			}
		}
		try (Connection text = Db.connect("binaryTransfer", "false");
				Connection binary = Db.connect("prepareThreshold", "-1"))
		{
			Idgen.register(text);
			Idgen.register(binary);
			for (String[] f : FAMILIES)
			{
				long bestText = Long.MAX_VALUE, bestBinary = Long.MAX_VALUE;
				for (int round = 0; round < 3; round++)
				{
					bestText = Math.min(bestText, read(text, f[0]));
					bestBinary = Math.min(bestBinary, read(binary, f[0]));
				}
				System.out.printf("decode %,d rows of %s (%s) with getObject: text %d ms, binary %d ms, text/binary %.2f%n",
						ROWS, f[0], f[1], bestText / 1_000_000, bestBinary / 1_000_000, (double) bestText / bestBinary);
			}
		}
	}

	/** Nanoseconds to read every row of the family's table with getObject. */
	static long read(Connection conn, String family) throws SQLException
	{
		conn.setAutoCommit(false);
		long started = System.nanoTime();
		int n = 0;
		try (java.sql.PreparedStatement ps = conn.prepareStatement("SELECT v FROM speed_" + family))
		{
			ps.setFetchSize(50_000);
			try (ResultSet rs = ps.executeQuery())
			{
				while (rs.next())
				{
					if (rs.getObject(1) != null)
						n++;
				}
			}
		}
		long took = System.nanoTime() - started;
		conn.commit();
		conn.setAutoCommit(true);
		assertEquals(ROWS, n);
		return took;
	}
}
