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
 * The Hibernate type of one of idgen's value classes (or of another immutable class that one of them
 * converts): read as text (so the connection needs no registration), bound with {@code setObject}
 * of the value class, which pgjdbc sends with the type's OID, so that {@code WHERE id = ?} needs no
 * cast; a literal is written with a cast to the type.
 */
abstract class IdgenUserType<J> implements EnhancedUserType<J>
{
	private final Class<J> javaType;
	private final String sqlType;
	private final Function<String, J> parse;
	private final Function<J, PGobject> bound;

	/** The type of a value class itself. */
	IdgenUserType(Class<J> javaType, String sqlType, Function<String, J> parse)
	{
		this(javaType, sqlType, parse, value -> (PGobject) value);
	}

	/** The type of another class, bound as the value class that {@code bound} converts it to. */
	IdgenUserType(Class<J> javaType, String sqlType, Function<String, J> parse, Function<J, PGobject> bound)
	{
		this.javaType = javaType;
		this.sqlType = sqlType;
		this.parse = parse;
		this.bound = bound;
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
			st.setObject(position, bound.apply(value));
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
		return value == null ? null : toString(value);
	}

	@Override
	public J assemble(Serializable cached, Object owner)
	{
		return cached == null ? null : parse.apply((String) cached);
	}

	@Override
	public String toSqlLiteral(J value)
	{
		return "'" + toString(value) + "'::" + sqlType;
	}

	@Override
	public String toString(J value)
	{
		return bound.apply(value).getValue();
	}

	@Override
	public J fromStringValue(CharSequence text)
	{
		return parse.apply(text.toString());
	}
}
