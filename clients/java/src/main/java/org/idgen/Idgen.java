package org.idgen;

import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.QueryExecutor;

/** Registration of idgen's types with a pgjdbc connection. */
public final class Idgen
{
	/** The extension's version, which is this package's. */
	public static final String VERSION = "0.8.0";

	private Idgen()
	{
	}

	/**
	 * Makes {@code getObject} on this connection return {@link Ulid}, {@link PrefixedId} and
	 * {@link TypeId} for columns of those types and of their domains (pgjdbc's
	 * {@code PGConnection.addDataType}). A pooled connection (HikariCP) is unwrapped; do it once per
	 * physical connection, e.g. in the pool's connection-init hook. Also lets pgjdbc transfer the
	 * three types in binary, as it does {@code uuid} and {@code bigint}: results of server-prepared
	 * statements (from the {@code prepareThreshold}-th execution, or at once with
	 * {@code prepareThreshold=-1}) and parameters of {@code setObject}.
	 */
	public static void register(Connection conn) throws SQLException
	{
		PGConnection pg = conn.unwrap(PGConnection.class);
		pg.addDataType(Ulid.TYPE, Ulid.class);
		pg.addDataType(PrefixedId.TYPE, PrefixedId.class);
		pg.addDataType(TypeId.TYPE, TypeId.class);
		BaseConnection base = conn.unwrap(BaseConnection.class);
		QueryExecutor executor = base.getQueryExecutor();
		for (String type : new String[] {Ulid.TYPE, PrefixedId.TYPE, TypeId.TYPE})
		{
			int oid = base.getTypeInfo().getPGType(type);
			if (oid == 0)
				throw new SQLException("type " + type + " does not exist: CREATE EXTENSION idgen first", "42704");
			executor.addBinaryReceiveOid(oid);
			executor.addBinarySendOid(oid);
		}
	}
}
