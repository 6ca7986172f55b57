package org.idgen;

import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;

/** Registration of idgen's types with a pgjdbc connection. */
public final class Idgen
{
	/** The extension's version, which is this package's. */
	public static final String VERSION = "0.7.0";

	private Idgen()
	{
	}

	/**
	 * Makes {@code getObject} on this connection return {@link Ulid}, {@link PrefixedId} and
	 * {@link TypeId} for columns of those types and of their domains (pgjdbc's
	 * {@code PGConnection.addDataType}). A pooled connection (HikariCP) is unwrapped; do it once per
	 * physical connection, e.g. in the pool's connection-init hook.
	 */
	public static void register(Connection conn) throws SQLException
	{
		PGConnection pg = conn.unwrap(PGConnection.class);
		pg.addDataType(Ulid.TYPE, Ulid.class);
		pg.addDataType(PrefixedId.TYPE, PrefixedId.class);
		pg.addDataType(TypeId.TYPE, TypeId.class);
	}
}
