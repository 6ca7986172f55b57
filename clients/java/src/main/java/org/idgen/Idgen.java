package org.idgen;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.BaseStatement;
import org.postgresql.core.QueryExecutor;
import org.postgresql.util.PGobject;

/** Registration of idgen's types with a pgjdbc connection. */
public final class Idgen
{
	/** The extension's version, which is this package's. */
	public static final String VERSION = "0.8.0";

	/**
	 * Finds the extension's {@code idgen_types()} (docs/reference.md) in whatever schema idgen lives:
	 * the name to call it by (qualified when its schema is not on the search_path; NULL before idgen
	 * 0.8.0, which added it) and the extension's version; no row without idgen.
	 */
	static final String TYPES_FUNCTION_SQL = "SELECT pg_catalog.to_regprocedure("
			+ "e.extnamespace::pg_catalog.regnamespace::pg_catalog.text OPERATOR(pg_catalog.||) '.idgen_types()')"
			+ "::pg_catalog.text, e.extversion FROM pg_catalog.pg_extension e"
			+ " WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'";

	/** The value class of each family that idgen_types() names. */
	private static final Map<String, Class<? extends PGobject>> CLASSES = Map.of(Ulid.TYPE, Ulid.class, PrefixedId.TYPE,
			PrefixedId.class, TypeId.TYPE, TypeId.class, Ksuid.TYPE, Ksuid.class, ObjectId.TYPE, ObjectId.class, "xid", Xid.class);

	private Idgen()
	{
	}

	/**
	 * Makes {@code getObject} on this connection return {@link Ulid}, {@link PrefixedId},
	 * {@link TypeId}, {@link Ksuid}, {@link ObjectId} and {@link Xid} for columns of those types, of every domain over them (domains over domains
	 * too) and for the elements of their arrays (pgjdbc's {@code PGConnection.addDataType}), the
	 * types found through the extension's {@code idgen_types()}, in whatever schema idgen lives (it
	 * needs idgen 0.8.0 or later). A pooled connection (HikariCP) is unwrapped; do it once per
	 * physical connection, e.g. in the pool's connection-init hook, and again after creating a
	 * domain. Also lets pgjdbc transfer the types in binary, as it does {@code uuid} and
	 * {@code bigint}: results of server-prepared statements (from the {@code prepareThreshold}-th
	 * execution, or at once with {@code prepareThreshold=-1}) and parameters of {@code setObject}.
	 */
	public static void register(Connection conn) throws SQLException
	{
		PGConnection pg = conn.unwrap(PGConnection.class);
		BaseConnection base = conn.unwrap(BaseConnection.class);
		QueryExecutor executor = base.getQueryExecutor();
		try (Statement st = base.createStatement())
		{
			query(st, TYPES_FUNCTION_SQL);
			String function = null;
			String version = null;
			try (ResultSet rs = st.getResultSet())
			{
				if (rs.next())
				{
					function = rs.getString(1);
					version = rs.getString(2);
				}
			}
			query(st, typesSql(function, version));
			try (ResultSet rs = st.getResultSet())
			{
				while (rs.next())
				{
					Class<? extends PGobject> cls = CLASSES.get(rs.getString(4));
					if (cls == null)
						continue; // a family this version of the package does not know
					// both names pgjdbc may give the type (it names an array's element type
					// "schema"."name" when its schema is off the search_path, and a type that
					// addDataType looked up by its plain name), whatever the search_path is now
					pg.addDataType("\"" + rs.getString(3) + "\".\"" + rs.getString(2) + "\"", cls);
					pg.addDataType(rs.getString(2), cls);
					int oid = (int) rs.getLong(1);
					executor.addBinaryReceiveOid(oid);
					executor.addBinarySendOid(oid);
				}
			}
		}
	}

	/**
	 * Runs SQL without opening a transaction (as pgjdbc's own catalog lookups do), so that a
	 * connection without autocommit is left as it was.
	 */
	private static void query(Statement st, String sql) throws SQLException
	{
		st.unwrap(BaseStatement.class).executeWithFlags(sql, QueryExecutor.QUERY_SUPPRESS_BEGIN);
	}

	/**
	 * The statement that lists the types and every domain over them (oid, name, schema, family),
	 * for the row of TYPES_FUNCTION_SQL (version null: no row); a SQLException where idgen is not
	 * installed or older than 0.8.0.
	 */
	private static String typesSql(String function, String version) throws SQLException
	{
		if (version == null)
			throw new SQLException("the idgen extension is not installed in this database (CREATE EXTENSION idgen)",
					"42704");
		if (function == null)
			throw new SQLException("idgen " + version + " is installed, and this package needs idgen 0.8.0 or later,"
					+ " whose idgen_types() lists the types (ALTER EXTENSION idgen UPDATE)", "42883");
		return "SELECT t.oid, t.name::pg_catalog.text, t.schema::pg_catalog.text, t.family FROM " + function + " t";
	}
}
