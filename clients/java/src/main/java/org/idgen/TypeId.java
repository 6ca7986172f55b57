package org.idgen;

import java.sql.SQLException;
import java.util.Objects;
import java.util.UUID;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * A value of idgen's {@code typeid} type (and of the domains of {@code typeid_define()}): the TypeID
 * specification's prefix and 128 bits, as text {@code user_} and 26 lower-case Crockford base32
 * digits (no prefix and no "_" for the empty prefix). Register it with {@link Idgen#register};
 * {@code setObject} sends it as a {@code typeid}. Immutable once set.
 */
public final class TypeId extends PGobject implements PGBinaryObject, Comparable<TypeId>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "typeid";

	private String prefix;
	private long hi;
	private long lo;

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public TypeId()
	{
		setType(TYPE);
	}

	private TypeId(String prefix, long hi, long lo)
	{
		this();
		this.prefix = prefix;
		this.hi = hi;
		this.lo = lo;
		this.value = text(prefix, hi, lo);
	}

	private static String text(String prefix, long hi, long lo)
	{
		String suffix = Codec.base32(hi, lo, true);
		return prefix.isEmpty() ? suffix : prefix + "_" + suffix;
	}

	/** The TypeID of this text, or IllegalArgumentException. */
	public static TypeId parse(String text)
	{
		TypeId id = new TypeId();
		if (!id.read(text))
			throw new IllegalArgumentException(message(text));
		return id;
	}

	/** The TypeID of a prefix ("" for none) and 128 bits (what {@code typeid_from_uuid()} gives). */
	public static TypeId of(String prefix, UUID payload)
	{
		if (prefix == null || (!prefix.isEmpty() && !Codec.validPrefix(prefix)))
			throw new IllegalArgumentException("invalid prefix for typeid: \"" + prefix + "\"");
		return new TypeId(prefix, payload.getMostSignificantBits(), payload.getLeastSignificantBits());
	}

	/** The prefix, "" for none (what {@code typeid_prefix()} gives). */
	public String prefix()
	{
		return prefix;
	}

	/** The 128 bits (what {@code typeid_uuid()} gives). */
	public UUID toUuid()
	{
		return new UUID(hi, lo);
	}

	private boolean read(String text)
	{
		if (text == null)
			return false;
		int separator = text.lastIndexOf('_');
		String p = separator < 0 ? "" : text.substring(0, separator);
		long[] bits = Codec.parseBase32(text.substring(separator + 1), true);
		if ((separator >= 0 && !Codec.validPrefix(p)) || bits == null)
			return false;
		prefix = p;
		hi = bits[0];
		lo = bits[1];
		value = text(prefix, hi, lo);
		return true;
	}

	@Override
	public void setValue(String text) throws SQLException
	{
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a typeid value cannot be changed", "55000");
		if (text != null && !read(text))
			throw new SQLException(message(text), "22P02");
	}

	/** Reads the binary form: length byte L, L prefix bytes, 16 bytes (pgjdbc calls it for a binary result). */
	@Override
	public void setByteValue(byte[] bytes, int offset) throws SQLException
	{
		String p = Codec.wirePrefix(bytes, offset, true);
		if (p == null)
			throw new SQLException("invalid binary typeid", "22P03");
		int at = offset + 1 + p.length();
		long h = Codec.readLong(bytes, at), l = Codec.readLong(bytes, at + 8);
		String text = text(p, h, l);
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a typeid value cannot be changed", "55000");
		prefix = p;
		hi = h;
		lo = l;
		value = text;
	}

	@Override
	public int lengthInBytes()
	{
		return 1 + prefix.length() + 16;
	}

	/** Writes the binary form (pgjdbc calls it for a binary parameter). */
	@Override
	public void toBytes(byte[] bytes, int offset)
	{
		Codec.writeWire(prefix, hi, lo, bytes, offset);
	}

	private static String message(String text)
	{
		return "invalid input syntax for type typeid: \"" + text + "\"";
	}

	/** By prefix, then by the 128 bits. */
	@Override
	public int compareTo(TypeId other)
	{
		int c = prefix.compareTo(other.prefix);
		if (c == 0)
			c = Long.compareUnsigned(hi, other.hi);
		return c != 0 ? c : Long.compareUnsigned(lo, other.lo);
	}

	@Override
	public boolean equals(Object other)
	{
		return other instanceof TypeId && value != null && value.equals(((TypeId) other).value);
	}

	@Override
	public int hashCode()
	{
		return Objects.hashCode(value);
	}

	@Override
	public TypeId clone() throws CloneNotSupportedException
	{
		return (TypeId) super.clone();
	}
}
