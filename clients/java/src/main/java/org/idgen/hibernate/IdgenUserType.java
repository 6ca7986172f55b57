package org.idgen.hibernate;

import java.io.Serializable;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import java.util.function.Function;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.usertype.EnhancedUserType;
import org.postgresql.util.PGobject;

/**
 * The Hibernate type of one of idgen's value classes: read as text (so the connection needs no
 * registration), bound with {@code setObject}, which pgjdbc sends with the type's OID, so that
 * {@code WHERE id = ?} needs no cast; a literal is written with a cast to the type. The values are
 * immutable.
 */
abstract class IdgenUserType<J extends PGobject> implements EnhancedUserType<J>
{
	private final Class<J> javaType;
	private final String sqlType;
	private final Function<String, J> parse;

	IdgenUserType(Class<J> javaType, String sqlType, Function<String, J> parse)
	{
		this.javaType = javaType;
		this.sqlType = sqlType;
		this.parse = parse;
	}

	@Override
	public int getSqlType()
	{
		return Types.OTHER;
	}

	@Override
	public Class<J> returnedClass()
	{
		return javaType;
	}

	@Override
	public boolean equals(J x, J y)
	{
		return Objects.equals(x, y);
	}

	@Override
	public int hashCode(J x)
	{
		return Objects.hashCode(x);
	}

	@Override
	public J nullSafeGet(ResultSet rs, int position, WrapperOptions options) throws SQLException
	{
		String text = rs.getString(position);
		return text == null ? null : parse.apply(text);
	}

	@Override
	public void nullSafeSet(PreparedStatement st, J value, int position, WrapperOptions options)
			throws SQLException
	{
		if (value == null)
			st.setNull(position, Types.OTHER, sqlType);
		else
			st.setObject(position, value);
	}

	@Override
	public J deepCopy(J value)
	{
		return value;
	}

	@Override
	public boolean isMutable()
	{
		return false;
	}

	@Override
	public Serializable disassemble(J value)
	{
		return value == null ? null : value.getValue();
	}

	@Override
	public J assemble(Serializable cached, Object owner)
	{
		return cached == null ? null : parse.apply((String) cached);
	}

	@Override
	public String toSqlLiteral(J value)
	{
		return "'" + value.getValue() + "'::" + sqlType;
	}

	@Override
	public String toString(J value)
	{
		return value.getValue();
	}

	@Override
	public J fromStringValue(CharSequence text)
	{
		return parse.apply(text.toString());
	}
}
