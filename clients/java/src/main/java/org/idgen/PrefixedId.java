package org.idgen;

import java.sql.SQLException;
import java.util.Objects;
import java.util.UUID;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * A value of idgen's {@code prefixed_id} type (and of the domains of {@code prefixed_id_define()}):
 * a prefix of a-z and "_" and 128 bits, as text {@code acct_} and 25 base36 digits. Register it with
 * {@link Idgen#register}; {@code setObject} sends it as a {@code prefixed_id}, which a domain column
 * accepts when the prefix is its own. Immutable once set; the text is always lower case.
 */
public final class PrefixedId extends PGobject implements PGBinaryObject, Comparable<PrefixedId>
{
	private static final long serialVersionUID = 1L;
	/** The type's name in PostgreSQL. */
	public static final String TYPE = "prefixed_id";

	private String prefix;
	private long hi;
	private long lo;

	/** An empty value, for pgjdbc, which sets its text with {@link #setValue}. */
	public PrefixedId()
	{
		setType(TYPE);
	}

	private PrefixedId(String prefix, long hi, long lo)
	{
		this();
		this.prefix = prefix;
		this.hi = hi;
		this.lo = lo;
		this.value = prefix + "_" + Codec.base36(hi, lo);
	}

	/** The ID of this text, or IllegalArgumentException. */
	public static PrefixedId parse(String text)
	{
		PrefixedId id = new PrefixedId();
		if (!id.read(text))
			throw new IllegalArgumentException(message(text));
		return id;
	}

	/** The ID of a prefix and 128 bits (what {@code prefixed_id_from_uuid()} gives). */
	public static PrefixedId of(String prefix, UUID payload)
	{
		if (prefix == null || !Codec.validPrefix(prefix))
			throw new IllegalArgumentException("invalid prefix for prefixed_id: \"" + prefix + "\"");
		return new PrefixedId(prefix, payload.getMostSignificantBits(), payload.getLeastSignificantBits());
	}

	/** The prefix, without the "_" (what {@code prefixed_id_prefix()} gives). */
	public String prefix()
	{
		return prefix;
	}

	/** The 128 bits (what {@code prefixed_id_uuid()} gives). */
	public UUID toUuid()
	{
		return new UUID(hi, lo);
	}

	private boolean read(String text)
	{
		if (text == null)
			return false;
		int separator = text.lastIndexOf('_');
		if (separator < 0)
			return false;
		String p = text.substring(0, separator);
		long[] bits = Codec.parseBase36(text.substring(separator + 1));
		if (!Codec.validPrefix(p) || bits == null)
			return false;
		prefix = p;
		hi = bits[0];
		lo = bits[1];
		value = prefix + "_" + Codec.base36(hi, lo);
		return true;
	}

	@Override
	public void setValue(String text) throws SQLException
	{
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a prefixed_id value cannot be changed", "55000");
		if (text != null && !read(text))
			throw new SQLException(message(text), "22P02");
	}

	/** Reads the binary form: length byte L, L prefix bytes, 16 bytes (pgjdbc calls it for a binary result). */
	@Override
	public void setByteValue(byte[] bytes, int offset) throws SQLException
	{
		String p = Codec.wirePrefix(bytes, offset, false);
		if (p == null)
			throw new SQLException("invalid binary prefixed_id", "22P03");
		int at = offset + 1 + p.length();
		long h = Codec.readLong(bytes, at), l = Codec.readLong(bytes, at + 8);
		String text = p + "_" + Codec.base36(h, l);
		if (this.value != null && !this.value.equals(text))
			throw new SQLException("a prefixed_id value cannot be changed", "55000");
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
		return "invalid input syntax for type prefixed_id: \"" + text + "\"";
	}

	/** By prefix, then by the 128 bits. */
	@Override
	public int compareTo(PrefixedId other)
	{
		int c = prefix.compareTo(other.prefix);
		if (c == 0)
			c = Long.compareUnsigned(hi, other.hi);
		return c != 0 ? c : Long.compareUnsigned(lo, other.lo);
	}

	@Override
	public boolean equals(Object other)
	{
		return other instanceof PrefixedId && value != null && value.equals(((PrefixedId) other).value);
	}

	@Override
	public int hashCode()
	{
		return Objects.hashCode(value);
	}

	@Override
	public PrefixedId clone() throws CloneNotSupportedException
	{
		return (PrefixedId) super.clone();
	}
}
